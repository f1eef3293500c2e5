import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDotenv } from '../../src/config.js';

const envFile = (text: string) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pf-dotenv-')), '.env');
  writeFileSync(file, text);
  return file;
};

describe('.env', () => {
  it('reads KEY=value lines, comments, export and quotes', () => {
    const file = envFile('# comment\n\nPORT=4000\nexport HOST=127.0.0.1\nA="x # y"\nB=\'q\'\nC=v # trailing\r\nnot a line\nEMPTY=\n');
    expect(withDotenv({}, file).env).toEqual({ PORT: '4000', HOST: '127.0.0.1', A: 'x # y', B: 'q', C: 'v', EMPTY: '' });
  });

  it('never overrides the real environment, and is optional', () => {
    const file = envFile('PORT=4000\nLOG_LEVEL=debug\n');
    const { env, loaded } = withDotenv({ PORT: '5000' }, file);
    expect(env).toEqual({ PORT: '5000', LOG_LEVEL: 'debug' });
    expect(loaded).toEqual(['LOG_LEVEL']);
    expect(withDotenv({ PORT: '5000' }, path.join(path.dirname(file), 'missing'))).toEqual({ env: { PORT: '5000' }, loaded: [] });
  });
});
