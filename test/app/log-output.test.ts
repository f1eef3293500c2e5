// Log output: JSON lines when stdout is not a terminal (a pipe here) or in production, pino-pretty
// for a person at a terminal; and the start-up lines that say where uploads and secrets are kept.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { logOutput, wantsPrettyLogs } from '../../src/lib/log-output.js';
import { spawnServer, type LifecycleServer } from '../helpers/server-lifecycle.js';

describe('log output', () => {
  it('is pretty only on a terminal outside production', () => {
    expect(wantsPrettyLogs({ isTTY: true }, false)).toBe(true);
    expect(wantsPrettyLogs({ isTTY: true }, true)).toBe(false);
    expect(wantsPrettyLogs({ isTTY: false }, false)).toBe(false);
    expect(wantsPrettyLogs({}, false)).toBe(false);
  });

  it('writes JSON lines in order, multi-byte text intact, every line flushed when the process exits', () => {
    // A process that logs a burst (most lines wait behind the write in flight) and exits at once.
    const module = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/log-output.ts');
    const script = `
      import { pino } from 'pino';
      import { logOutput } from ${JSON.stringify(module)};
      const log = pino({ level: 'info' }, logOutput({ isTTY: false }, true));
      for (let i = 0; i < 5000; i++) log.info({ i, text: 'é✓🙂'.repeat(i % 7) }, 'line');
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const lines = child.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { i: number; text: string });
    expect(lines).toHaveLength(5000);
    lines.forEach((line, index) => {
      expect(line.i).toBe(index);
      expect(line.text).toBe('é✓🙂'.repeat(index % 7));
    });
  });

  it('writes a readable line, not JSON, through pino-pretty', async () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const stream = logOutput({ isTTY: true }, false, sink);
    expect(stream).toBeDefined();
    pino({ level: 'info' }, stream).info({ reqId: 'abc' }, 'hello there');
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toMatch(/INFO/);
    expect(written).toContain('hello there');
    expect(written).toContain('reqId');
    expect(() => JSON.parse(written)).toThrow();
  });
});

describe('start-up log', () => {
  let server: LifecycleServer | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  it('names the uploads folder and the generated secrets files, as JSON lines on a pipe', { timeout: 120_000 }, async () => {
    server = await spawnServer({ LOG_LEVEL: 'info', NODE_ENV: 'development', JWT_SECRET: '', API_KEY_SECRET: '' });
    await server.waitUntilHealthy(100_000);
    const messages = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages, server.output()).toContain(`Uploads in ${server.uploadDir}.`);
    const secrets = messages.find((message) => message.startsWith('Development secrets'));
    expect(secrets, server.output()).toMatch(/kept in (.+)[/\\]secrets[/\\]jwt-secret, (.+)[/\\]secrets[/\\]api-key-secret\.$/);
    expect(secrets).toContain(path.sep + 'pf-life-data-');
  });
});
