// Token invalidation and account deletion must hold on every server sharing the database, from
// the very next request.
import { describe, expect, it } from 'vitest';
import { engineName, uniqueEmail } from '../helpers/app.js';
import { twoServersSetup, withTwoServers, type Surface } from '../helpers/two-servers.js';
import { apiError, bearer, INVALID_TOKEN } from './helpers.js';

interface Registered {
  email: string;
  password: string;
  auth: Record<string, string>;
}

describe(`account changes across servers: ${twoServersSetup()} (${engineName()})`, () => {
  const { a, b } = withTwoServers();

  async function register(on: Surface): Promise<Registered> {
    const email = uniqueEmail('multi');
    const password = 'correct horse battery';
    const reply = await on.send('POST', '/auth/register', {}, { email, password, name: 'Multi' });
    expect(reply.status).toBe(201);
    return { email, password, auth: bearer((reply.body as { token: string }).token) };
  }

  const me = (on: Surface, auth: Record<string, string>) => on.send('GET', '/auth/me', auth);

  it('a password changed on A refuses the old token on B at the next request; the new token works on B', async () => {
    const account = await register(a);
    expect((await me(b, account.auth)).status).toBe(200);
    const changed = await a.send('PUT', '/auth/password', account.auth, {
      currentPassword: account.password,
      newPassword: 'the next secret',
    });
    expect(changed.status).toBe(200);
    expect(await me(b, account.auth)).toEqual({ status: 401, body: INVALID_TOKEN });
    expect((await me(b, bearer((changed.body as { token: string }).token))).status).toBe(200);
  });

  it('signing out everywhere on B refuses every earlier token on A at the next request', async () => {
    const account = await register(b);
    const login = await a.send('POST', '/auth/login', {}, { email: account.email, password: account.password });
    const second = bearer((login.body as { token: string }).token);
    expect((await me(a, second)).status).toBe(200);
    expect((await b.send('DELETE', '/auth/sessions', account.auth)).status).toBe(204);
    expect(await me(a, second)).toEqual({ status: 401, body: INVALID_TOKEN });
    expect(await me(a, account.auth)).toEqual({ status: 401, body: INVALID_TOKEN });
  });

  it("a deleted account's key fails on the other server from the next request", async () => {
    const account = await register(a);
    const issued = await a.send('POST', '/api-keys', account.auth);
    expect(issued.status).toBe(201);
    const key = { 'x-api-key': (issued.body as { apiKey: { key: string } }).apiKey.key };
    for (let round = 0; round < 3; round++) expect((await b.send('GET', '/v1/templates/mailer-box', key)).status).toBe(200);
    // B has just verified the key, so it holds a fresh lease when A deletes the account.
    expect(await a.send('DELETE', '/auth/me', account.auth, { password: account.password })).toEqual({ status: 204, body: null });
    expect(await b.send('GET', '/v1/templates/mailer-box', key)).toEqual({ status: 401, body: apiError(401, 'Invalid API key.') });
    expect(await me(b, account.auth)).toEqual({ status: 401, body: INVALID_TOKEN });
  });

  it('deleting one account from both servers at once: one 204, the other 401, nothing left', async () => {
    const account = await register(a);
    const project = await a.send('POST', '/projects', account.auth, { name: 'P', templateId: 'mailer-box' });
    expect(project.status).toBe(201);
    const issued = await b.send('POST', '/api-keys', account.auth);
    const key = { 'x-api-key': (issued.body as { apiKey: { key: string } }).apiKey.key };
    const [onA, onB] = await Promise.all([
      a.send('DELETE', '/auth/me', account.auth, { password: account.password }),
      b.send('DELETE', '/auth/me', account.auth, { password: account.password }),
    ]);
    expect([onA.status, onB.status].sort()).toEqual([204, 401]);
    expect((onA.status === 401 ? onA : onB).body).toEqual(INVALID_TOKEN);
    for (const on of [a, b]) {
      expect((await on.send('GET', '/v1/templates/mailer-box', key)).status).toBe(401);
      expect((await on.send('POST', '/auth/login', {}, { email: account.email, password: account.password })).status).toBe(401);
    }
    // The email is free again, on either server.
    const again = await b.send('POST', '/auth/register', {}, { email: account.email, password: account.password, name: 'Again' });
    expect(again.status).toBe(201);
  });
});
