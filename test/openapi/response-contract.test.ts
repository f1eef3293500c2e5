// The check every test app runs on its answers (test/helpers/response-contract.ts) must catch a
// route that answers something its document does not say.
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { errorResponses } from '../../src/schemas/common.js';
import { testConfig } from '../helpers/app.js';
import { enforceResponseContract, ResponseContractError } from '../helpers/response-contract.js';

/** An app with one extra route that lies about itself in the way `answer` says. */
async function appWithRoute(answer: (reply: { code(n: number): unknown; header(k: string, v: string): unknown }) => unknown): Promise<App> {
  const app = await buildApp(testConfig(), { logger: false });
  app.get(
    '/lying',
    {
      schema: {
        tags: ['health'],
        summary: 'A route that breaks its own contract',
        response: { 200: Type.Object({ n: Type.Integer() }), ...errorResponses(400) },
      },
    },
    // The answers are deliberately wrong: the cast lets them past the type provider.
    async (_request, reply) => answer(reply) as never,
  );
  enforceResponseContract(app);
  await app.ready();
  return app;
}

// Each test builds its own app (a fresh embedded database): allow for a busy machine.
describe('the response contract of the test apps', { timeout: 120_000 }, () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.close().catch(() => undefined);
    app = undefined;
  });

  it('passes a documented answer', async () => {
    app = await appWithRoute(() => ({ n: 1 }));
    expect((await app.inject({ method: 'GET', url: '/lying' })).statusCode).toBe(200);
  });

  it('fails an undocumented status loudly, naming the operation and the status', async () => {
    app = await appWithRoute((reply) => {
      reply.code(418);
      return { n: 1 };
    });
    await expect(app.inject({ method: 'GET', url: '/lying' })).rejects.toThrow(
      new ResponseContractError(
        'The answer contradicts the OpenAPI document: GET /lying → 418: status 418 is not documented for this operation',
      ),
    );
  });

  it('fails a body that does not match its schema', async () => {
    app = await appWithRoute((reply) => {
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({ n: 'one' });
    });
    await expect(app.inject({ method: 'GET', url: '/lying' })).rejects.toThrow(/GET \/lying → 200: body\/n must be integer/);
  });

  it('fails an answer over a real socket at close()', async () => {
    app = await appWithRoute((reply) => {
      reply.code(409);
      return { n: 1 };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${address}/lying`)).status).toBe(409);
    const closing = app.close();
    app = undefined;
    await expect(closing).rejects.toThrow(/status 409 is not documented/);
  });

  it('fails a route missing from the document', async () => {
    const bare = await buildApp(testConfig(), { logger: false });
    bare.get('/hidden', { schema: { hide: true } }, async () => ({ ok: true }));
    enforceResponseContract(bare);
    await bare.ready();
    app = bare;
    await expect(bare.inject({ method: 'GET', url: '/hidden' })).rejects.toThrow(/GET \/hidden is not in the OpenAPI document/);
  });
});
