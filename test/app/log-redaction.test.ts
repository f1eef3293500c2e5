import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LOG_REDACTION } from '../../src/lib/log-output.js';

/** The lines a logger with the service's redaction writes for `entry`. */
function written(entry: Record<string, unknown>): Record<string, unknown> {
  const lines: string[] = [];
  pino({ redact: LOG_REDACTION, timestamp: false, base: null }, { write: (line: string) => void lines.push(line) }).info(entry, 'seen');
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('log redaction', () => {
  it('writes a line without credentials exactly as given', () => {
    const entry = { reqId: 'r1', res: { statusCode: 200 }, list: [1, { a: 'b' }] };
    expect(written(entry)).toEqual({ level: 30, ...entry, msg: 'seen' });
  });

  it('replaces credential headers and password and token fields, without mutating the input', () => {
    const headers = { authorization: 'Bearer x.y.z', 'x-api-key': 'pf_abc', cookie: 's=1', accept: '*/*' };
    const entry = { req: { headers }, res: { headers: { 'set-cookie': 'a=b' } }, body: { password: 'hunter2', name: 'n' }, token: 't' };
    expect(written(entry)).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', cookie: '[redacted]', accept: '*/*' } },
      res: { headers: { 'set-cookie': '[redacted]' } },
      body: { password: '[redacted]', name: 'n' },
      token: '[redacted]',
    });
    expect(headers.authorization).toBe('Bearer x.y.z');
    expect(entry.body.password).toBe('hunter2');
  });
});
