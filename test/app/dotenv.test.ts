import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDotenv, withDotenv } from '../../src/lib/dotenv.js';

describe('.env', () => {
  it('parses KEY=value lines, comments, export and quotes', () => {
    expect(
      parseDotenv('# comment\n\nPORT=4000\nexport HOST=127.0.0.1\nA="x # y"\nB=\'q\'\nC=v # trailing\r\nnot a line\nEMPTY=\n'),
    ).toEqual({ PORT: '4000', HOST: '127.0.0.1', A: 'x # y', B: 'q', C: 'v', EMPTY: '' });
  });

  it('never overrides the real environment, and is optional', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pf-dotenv-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'PORT=4000\nLOG_LEVEL=debug\n');
    const { env, loaded } = withDotenv({ PORT: '5000' }, file);
    expect(env).toEqual({ PORT: '5000', LOG_LEVEL: 'debug' });
    expect(loaded).toEqual(['LOG_LEVEL']);
    expect(withDotenv({ PORT: '5000' }, path.join(dir, 'missing'))).toEqual({ env: { PORT: '5000' }, loaded: [] });
  });
});
