import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/lib/log-redaction.js';

describe('redactSecrets', () => {
  it('returns the very same object when nothing is secret', () => {
    const entry = { reqId: 'r1', res: { statusCode: 200 }, list: [1, { a: 'b' }] };
    expect(redactSecrets(entry)).toBe(entry);
  });

  it('replaces secrets at any depth, whatever the key case, without mutating the input', () => {
    const headers = { Authorization: 'Bearer x.y.z', 'X-API-Key': 'pf_abc', cookie: 's=1', accept: '*/*' };
    const entry = { req: { headers }, body: { password: 'hunter2', nested: [{ token: 't' }] } };
    const redacted = redactSecrets(entry);
    expect(redacted).toEqual({
      req: { headers: { Authorization: REDACTED, 'X-API-Key': REDACTED, cookie: REDACTED, accept: '*/*' } },
      body: { password: REDACTED, nested: [{ token: REDACTED }] },
    });
    expect(headers.Authorization).toBe('Bearer x.y.z');
    expect(entry.body.password).toBe('hunter2');
  });

  it('leaves class instances such as errors to their serializers', () => {
    const err = Object.assign(new Error('boom'), { password: 'kept for the serializer' });
    const entry = { err };
    expect(redactSecrets(entry)).toBe(entry);
  });

  it('handles null-prototype objects and stops at a depth bound', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { password: 'x' });
    expect(redactSecrets({ bare })).toEqual({ bare: { password: REDACTED } });
    let deep: Record<string, unknown> = { password: 'deep' };
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(() => redactSecrets(deep)).not.toThrow();
  });
});
