// Revocation must hold on every server sharing the database. On PostgreSQL: two real server
// processes. On the embedded engine (one process per database by nature): two app instances
// on one shared database.
import { describe, expect, it } from 'vitest';
import { engineName, uniqueEmail } from '../helpers/app.js';
import { twoServersSetup, withTwoServers, type Surface } from '../helpers/two-servers.js';
import { apiError, KEY_FORMAT, type IssuedKey } from './keys.js';

describe(`revocation across servers: ${twoServersSetup()} (${engineName()})`, () => {
  const { a, b } = withTwoServers();

  async function register(on: Surface): Promise<Record<string, string>> {
    const reply = await on.send(
      'POST',
      '/auth/register',
      {},
      { email: uniqueEmail('revoke'), password: 'correct horse battery', name: 'Revoker' },
    );
    expect(reply.status).toBe(201);
    return { authorization: `Bearer ${(reply.body as { token: string }).token}` };
  }

  async function issue(on: Surface, auth: Record<string, string>): Promise<IssuedKey> {
    const reply = await on.send('POST', '/api-keys', auth);
    expect(reply.status).toBe(201);
    const { apiKey } = reply.body as { apiKey: IssuedKey };
    expect(apiKey.key).toMatch(KEY_FORMAT);
    return apiKey;
  }

  const useKey = (on: Surface, key: string) => on.send('GET', '/v1/templates/mailer-box', { 'x-api-key': key });

  it('a key issued through A works on B, and fails on B from the very next request after A revokes it', async () => {
    const auth = await register(a);
    for (let round = 0; round < 3; round++) {
      const apiKey = await issue(a, auth);
      expect((await useKey(b, apiKey.key)).status).toBe(200);
      expect((await useKey(a, apiKey.key)).status).toBe(200);

      const listed = await b.send('GET', '/api-keys', auth);
      expect(listed.status).toBe(200);
      expect((listed.body as { apiKeys: IssuedKey[] }).apiKeys).toContainEqual(apiKey);

      // B has just verified the key, so it holds a fresh lookup when A revokes it.
      expect((await useKey(b, apiKey.key)).status).toBe(200);
      const revoked = await a.send('DELETE', `/api-keys/${apiKey.id}`, auth);
      expect(revoked).toEqual({ status: 204, body: null });

      const next = await useKey(b, apiKey.key);
      expect(next).toEqual({ status: 401, body: apiError(401, 'Invalid API key.') });
      expect(await useKey(a, apiKey.key)).toEqual(next);
    }
  });

  it('revoking through B stops a key on A even while A is using it, and a second revoke on A is 404', async () => {
    const auth = await register(b);
    const apiKey = await issue(b, auth);
    expect((await useKey(a, apiKey.key)).status).toBe(200);
    const [used, revoked] = await Promise.all([useKey(a, apiKey.key), b.send('DELETE', `/api-keys/${apiKey.id}`, auth)]);
    expect(used.status === 200 || used.status === 401).toBe(true);
    expect(revoked.status).toBe(204);
    expect(await useKey(a, apiKey.key)).toEqual({ status: 401, body: apiError(401, 'Invalid API key.') });
    expect(await a.send('DELETE', `/api-keys/${apiKey.id}`, auth)).toEqual({
      status: 404,
      body: apiError(404, 'API key not found.'),
    });
  });
});
