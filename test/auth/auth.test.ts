import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createTestApp, engineName, TEST_JWT_SECRET, uniqueEmail } from '../helpers/app.js';
import { registerAccount } from '../helpers/accounts.js';

const b64url = (value: object | string) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function forgeToken(payload: object, { secret = TEST_JWT_SECRET, alg = 'HS256' } = {}) {
  const head = `${b64url({ alg, typ: 'JWT' })}.${b64url(payload)}`;
  if (alg === 'none') return `${head}.`;
  const algorithm = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg] ?? 'sha256';
  return `${head}.${createHmac(algorithm, secret).update(head).digest('base64url')}`;
}

describe(`accounts (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const register = (payload: object) => app.inject({ method: 'POST', url: '/auth/register', payload });
  const login = (payload: object) => app.inject({ method: 'POST', url: '/auth/login', payload });
  const me = (headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/auth/me', headers });

  describe('POST /auth/register', () => {
    it('creates an account: 201 with user and token, email trimmed and lower-cased, no password', async () => {
      const email = uniqueEmail('Reg');
      const response = await register({ email: `  ${email.toUpperCase()} `, password: 'correct horse', name: '  Ada  ' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['token', 'user']);
      expect(Object.keys(body.user).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'plan', 'role']);
      expect(body.user).toMatchObject({ plan: 'free', role: 'user' });
      expect(body.user.email).toBe(email.toLowerCase());
      expect(body.user.name).toBe('Ada');
      expect(body.user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.token.split('.')).toHaveLength(3);
      expect(response.body).not.toContain('correct horse');
      const payload = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString());
      expect(payload.sub).toBe(body.user.id);
      expect(payload.gen).toBe(0);
      expect(payload.exp - payload.iat).toBe(7 * 24 * 60 * 60);
      const header = JSON.parse(Buffer.from(body.token.split('.')[0], 'base64url').toString());
      expect(header.alg).toBe('HS256');
    });

    it.each([
      ['not an email', { email: 'nope' }, 'email must be a valid email address of at most 254 characters.'],
      [
        'an email over 254 characters',
        { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` },
        'email must be a valid email address of at most 254 characters.',
      ],
      ['a 7-byte password', { password: '1234567' }, 'password must be 8 to 72 bytes long in UTF-8.'],
      ['a 73-byte password', { password: 'a'.repeat(73) }, 'password must be 8 to 72 bytes long in UTF-8.'],
      ['a 37-character password of 74 bytes', { password: 'é'.repeat(37) }, 'password must be 8 to 72 bytes long in UTF-8.'],
      ['a password with NUL', { password: 'abcd\u0000efgh' }, 'password must not contain a NUL character.'],
      ['a name with NUL', { name: 'a\u0000b' }, 'name must not contain NUL or unpaired surrogate characters.'],
      ['a name with a lone surrogate', { name: 'a\ud800b' }, 'name must not contain NUL or unpaired surrogate characters.'],
      ['a password with a lone surrogate', { password: 'abcdefgh\udc00' }, 'password must not contain unpaired surrogate characters.'],
      ['an empty name', { name: '' }, 'name must be 1 to 100 characters long after trimming.'],
      ['a blank name', { name: '   ' }, 'name must be 1 to 100 characters long after trimming.'],
      ['a 101-character name', { name: 'n'.repeat(101) }, 'name must be 1 to 100 characters long after trimming.'],
      ['an unknown field', { role: 'admin' }, "body has an unknown field 'role'."],
      ['a number for the name', { name: 42 }, 'body/name must be string.'],
      ['null for the email', { email: null }, 'body/email must be string.'],
    ])('refuses %s with 400', async (_label, override, message) => {
      const response = await register({ email: uniqueEmail(), password: 'password1', name: 'Name', ...override });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    });

    it('accepts the bounds: 8 and 72 bytes, a 72-byte multi-byte password, 100-character names', async () => {
      for (const password of ['12345678', 'a'.repeat(72), 'é'.repeat(36), '🙂'.repeat(18)]) {
        const email = uniqueEmail();
        expect((await register({ email, password, name: 'n'.repeat(100) })).statusCode).toBe(201);
        expect((await login({ email, password })).statusCode, 'the same password logs in').toBe(200);
      }
    });

    it('refuses a duplicate email in another case with 409', async () => {
      const email = uniqueEmail('dup');
      expect((await register({ email, password: 'password1', name: 'A' })).statusCode).toBe(201);
      const response = await register({ email: email.toUpperCase(), password: 'password2', name: 'B' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: 'An account with this email already exists.',
      });
    });

    it('gives exactly one 201 and one 409 for two simultaneous registrations', async () => {
      const email = uniqueEmail('race');
      const responses = await Promise.all([
        register({ email, password: 'password1', name: 'A' }),
        register({ email: email.toUpperCase(), password: 'password1', name: 'B' }),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    });
  });

  describe('POST /auth/login', () => {
    it('returns the user and a working token', async () => {
      const account = await registerAccount(app);
      const response = await login({ email: `  ${account.email.toUpperCase()}`, password: account.password });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.user).toMatchObject({ id: account.id, email: account.email });
      expect((await me({ authorization: `Bearer ${body.token}` })).statusCode).toBe(200);
    });

    it('fails a wrong password and an unknown email with the same 401 body', async () => {
      const account = await registerAccount(app);
      const wrong = await login({ email: account.email, password: 'wrong password' });
      const unknown = await login({ email: uniqueEmail('ghost'), password: 'wrong password' });
      const expected = { statusCode: 401, error: 'Unauthorized', message: 'Invalid email or password.' };
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(expected);
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(expected);
    });

    it('applies the password byte rules on login too', async () => {
      expect((await login({ email: uniqueEmail(), password: 'a'.repeat(73) })).statusCode).toBe(400);
      expect((await login({ email: uniqueEmail(), password: 'abc\u0000defgh' })).statusCode).toBe(400);
      expect((await login({ email: uniqueEmail(), password: 'x', extra: 1 })).statusCode).toBe(400);
    });
  });

  describe('GET /auth/me and the guard', () => {
    it('returns the account behind the token', async () => {
      const account = await registerAccount(app);
      const response = await me(account.auth);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: { id: account.id, email: account.email, name: 'Test User', plan: 'free', role: 'user', createdAt: expect.any(String) },
      });
    });

    it('answers 401 for every kind of bad token', async () => {
      const account = await registerAccount(app);
      const now = Math.floor(Date.now() / 1000);
      const cases: Array<[string, Record<string, string>, string]> = [
        ['no header', {}, 'Authentication required.'],
        ['empty header', { authorization: '' }, 'Authentication required.'],
        ['another scheme', { authorization: `Basic ${account.token}` }, 'Invalid or expired token.'],
        ['two spaces', { authorization: `Bearer  ${account.token}` }, 'Invalid or expired token.'],
        ['garbage', { authorization: 'Bearer not-a-token' }, 'Invalid or expired token.'],
        ['a truncated signature', { authorization: `Bearer ${account.token.slice(0, -3)}` }, 'Invalid or expired token.'],
        [
          'a wrong secret',
          { authorization: `Bearer ${forgeToken({ sub: account.id, iat: now, exp: now + 60 }, { secret: 'x'.repeat(40) })}` },
          'Invalid or expired token.',
        ],
        [
          'alg none',
          { authorization: `Bearer ${forgeToken({ sub: account.id, iat: now, exp: now + 60 }, { alg: 'none' })}` },
          'Invalid or expired token.',
        ],
        [
          'HS512 with the right secret',
          { authorization: `Bearer ${forgeToken({ sub: account.id, iat: now, exp: now + 60 }, { alg: 'HS512' })}` },
          'Invalid or expired token.',
        ],
        [
          'an expired token',
          { authorization: `Bearer ${forgeToken({ sub: account.id, iat: now - 100, exp: now - 10 })}` },
          'Invalid or expired token.',
        ],
        ['no subject', { authorization: `Bearer ${forgeToken({ iat: now, exp: now + 60 })}` }, 'Invalid or expired token.'],
        [
          'an unknown account',
          { authorization: `Bearer ${forgeToken({ sub: 'nobody', iat: now, exp: now + 60 })}` },
          'Invalid or expired token.',
        ],
        ['an API key only', { 'x-api-key': `pf_${'a'.repeat(48)}` }, 'Authentication required.'],
        ['an over-long token', { authorization: `Bearer ${'a'.repeat(600)}.${'b'.repeat(600)}.c` }, 'Invalid or expired token.'],
      ];
      for (const [label, headers, message] of cases) {
        const response = await me(headers);
        expect(response.statusCode, label).toBe(401);
        expect(response.json(), label).toEqual({ statusCode: 401, error: 'Unauthorized', message });
      }
    });

    it('refuses a token once it has expired, though it was accepted (and remembered as verified) before', async () => {
      const account = await registerAccount(app);
      const expiresAt = Math.floor(Date.now() / 1000) + 2;
      const token = forgeToken({ sub: account.id, gen: 0, iat: expiresAt - 60, exp: expiresAt });
      expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, expiresAt * 1000 - Date.now() + 1100));
      const response = await me({ authorization: `Bearer ${token}` });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Invalid or expired token.');
    });

    it('refuses the token of an account that no longer exists', async () => {
      const account = await registerAccount(app);
      expect((await me(account.auth)).statusCode).toBe(200);
      await app.db.prisma.user.delete({ where: { id: account.id } });
      const response = await me(account.auth);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Invalid or expired token.');
    });
  });

  it('stores a bcrypt hash of the configured cost, never the password', async () => {
    const account = await registerAccount(app, { password: 'plain text secret' });
    const row = await app.db.prisma.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.passwordHash).toMatch(/^\$2b\$04\$/);
    expect(JSON.stringify(row)).not.toContain('plain text secret');
  });
});

describe(`auth rate limit (${engineName()})`, () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '3' });
  });
  afterAll(() => app.close());

  it('limits login and register per client IP with a 429 ApiError and Retry-After', async () => {
    const attempt = (ip: string) =>
      app.inject({ method: 'POST', url: '/auth/login', remoteAddress: ip, payload: { email: uniqueEmail(), password: 'password1' } });
    for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1')).statusCode).toBe(401);
    const limited = await attempt('10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(Object.keys(limited.json()).sort()).toEqual(['error', 'message', 'statusCode']);
    const registerLimited = await app.inject({
      method: 'POST',
      url: '/auth/register',
      remoteAddress: '10.0.0.1',
      payload: { email: uniqueEmail(), password: 'password1', name: 'x' },
    });
    expect(registerLimited.statusCode).toBe(429);
    expect((await attempt('10.0.0.2')).statusCode).toBe(401);
  });
});
