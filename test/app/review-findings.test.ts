// Credentials before URL errors, bodies refused where a route takes none, tokens that must expire,
// and deliberate 503s logged without a stack.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { HttpError, MESSAGES } from '../../src/errors.js';
import { apiError, registerAdmin } from '../accounts/helpers.js';
import { issueKey, type IssuedKey } from '../api-keys/keys.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { captureLogLines } from '../helpers/log-capture.js';
import { listenLocally, rawRequest, type RawResponse } from '../helpers/raw-http.js';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function hs256(payload: object, secret = TEST_JWT_SECRET): string {
  const signed = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

const bodyOf = (response: RawResponse) => JSON.parse(response.body.toString('utf8')) as unknown;

describe(`credentials, bodies and tokens (${engineName()})`, () => {
  let app: App;
  let port = 0;
  let user: TestAccount;
  let admin: TestAccount;
  let key: IssuedKey;
  beforeAll(async () => {
    app = await createTestApp();
    port = await listenLocally(app);
    user = await registerAccount(app);
    admin = await registerAdmin(app);
    key = await issueKey(app, user);
  });
  afterAll(() => app.close());

  const raw = (target: string, headers: Record<string, string> = {}) => rawRequest(port, 'GET', target, headers);

  it('checks the key on a malformed /v1 URL before saying the URL is malformed', async () => {
    const missing = await raw('/v1/%');
    expect(missing.statusCode).toBe(401);
    expect(bodyOf(missing)).toEqual(apiError(401, MESSAGES.missingApiKey));
    expect(missing.headers['x-request-id']).toBeTruthy();
    expect(bodyOf(await raw('/v1/%', { 'x-api-key': `pf_${'0'.repeat(48)}` }))).toEqual(apiError(401, MESSAGES.invalidApiKey));
    expect(bodyOf(await raw('/v1/templates/%zz', { 'x-api-key': key.key }))).toEqual(apiError(404, 'The URL is malformed.'));
  });

  it('checks the token and the role on a malformed /admin URL first', async () => {
    expect(bodyOf(await raw('/admin/%'))).toEqual(apiError(401, MESSAGES.authRequired));
    expect(bodyOf(await raw('/admin/%', { authorization: 'Bearer a.b.c' }))).toEqual(apiError(401, MESSAGES.invalidToken));
    expect(bodyOf(await raw('/admin/%', user.auth))).toEqual(apiError(403, MESSAGES.adminRequired));
    expect(bodyOf(await raw('/admin/%', admin.auth))).toEqual(apiError(404, 'The URL is malformed.'));
  });

  it('answers a 200-character project id with a bad token 401, with a good one 404', async () => {
    const longId = 'a'.repeat(200);
    expect(bodyOf(await raw(`/projects/${longId}`, { authorization: 'Bearer a.b.c' }))).toEqual(apiError(401, MESSAGES.invalidToken));
    expect(bodyOf(await raw(`/projects/${longId}`))).toEqual(apiError(401, MESSAGES.authRequired));
    expect(bodyOf(await raw(`/projects/${longId}`, user.auth))).toEqual(apiError(404, 'A path parameter is too long.'));
    // Public routes are unchanged.
    expect(bodyOf(await raw('/templates/%'))).toEqual(apiError(404, 'The URL is malformed.'));
  });

  it('refuses a body on DELETE /auth/sessions, which takes none, and ends no session', async () => {
    const account = await registerAccount(app);
    const refused = await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth, payload: { everywhere: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/^body /);
    expect((await app.inject({ method: 'GET', url: '/auth/me', headers: account.auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/auth/sessions', headers: account.auth, payload: {} })).statusCode).toBe(204);
  });

  it('refuses an HS256 token without exp, even signed with the secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExpiry = hs256({ sub: user.id, gen: 0, iat: now });
    const response = await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${noExpiry}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(apiError(401, MESSAGES.invalidToken));
    // The same claims with an expiry are accepted: the signature is right.
    const withExpiry = hs256({ sub: user.id, gen: 0, iat: now, exp: now + 600 });
    expect((await app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${withExpiry}` } })).statusCode).toBe(200);
  });
});

describe(`a deliberate 503 is logged at warn without a stack (${engineName()})`, () => {
  it('logs the print queue refusal as a warning naming the reason', async () => {
    const { lines, stream } = captureLogLines();
    const logged = await buildApp({ ...testConfig(), logLevel: 'info' }, { logStream: stream });
    // The print service's refusal when its queue is full, as its routes throw it.
    logged.get('/busy-for-this-test', async () => {
      throw new HttpError(503, MESSAGES.printBusy);
    });
    try {
      const response = await logged.inject({ method: 'GET', url: '/busy-for-this-test', headers: { 'x-request-id': 'busy-1' } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      const refusal = lines.filter((line) => line.reqId === 'busy-1' && line.msg !== 'request completed');
      expect(refusal).toEqual([expect.objectContaining({ level: 40, statusCode: 503, reason: MESSAGES.printBusy })]);
      expect(JSON.stringify(refusal)).not.toContain('stack');
    } finally {
      await logged.close();
    }
  });
});
