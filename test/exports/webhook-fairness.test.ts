// One account's dead webhook endpoints never delay another account's deliveries: at most four of
// an account's deliveries are in flight, and due messages are taken from the accounts in turn.
// Ten webhooks that never answer (10 s timeouts) and 30 exports of one account; another account's
// delivery still arrives within 2 s of its export finishing. Real receivers on this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { registerAccount, type TestAccount } from '../helpers/accounts.js';
import { createTestApp, engineName, ownDatabase } from '../helpers/app.js';
import { createProject } from '../print/harness.js';
import { registerProAccount } from '../projects/fixtures.js';
import { MAILER, pollInjected, sleep, type ExportBody } from './helpers.js';

let app: App;
let receiver: Server;
let base: string;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let hanging = 0;
const arrived = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.startsWith('/dead')) {
        hanging += 1;
        return; // never answers: the sender's 10 s timeout ends it
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { export: ExportBody } };
      arrived.set(body.data.export.id, Date.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  own = await ownDatabase('pf_webhook_fairness');
  app = await createTestApp({ ...own.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_POLL_MS: '200' });
}, 240_000);

afterAll(async () => {
  await app?.close();
  await own?.drop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function webhook(account: TestAccount, path: string): Promise<void> {
  const created = await app.inject({
    method: 'POST',
    url: '/webhooks',
    headers: account.auth,
    payload: { url: `${base}${path}`, events: ['export.succeeded', 'export.failed'] },
  });
  expect(created.statusCode, created.body).toBe(201);
}

async function exportOf(account: TestAccount, projectId: string): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: `/projects/${projectId}/exports`,
    headers: account.auth,
    payload: { format: 'dieline-svg' },
  });
  expect(created.statusCode, created.body).toBe(202);
  return created.json<{ export: ExportBody }>().export.id;
}

describe(`webhook deliveries shared by account (${engineName()})`, () => {
  it("ten dead endpoints and 30 exports of one account: another account's delivery arrives within 2 s of its export", async () => {
    const noisy = await registerProAccount(app);
    const quiet = await registerAccount(app);
    for (let i = 0; i < 10; i++) await webhook(noisy, `/dead/${i}`);
    await webhook(quiet, '/alive');
    const noisyProject = await createProject(app, noisy, 'mailer-box', {}, MAILER);
    const noisyExports: string[] = [];
    for (let i = 0; i < 30; i++) noisyExports.push(await exportOf(noisy, noisyProject));
    // The noisy account's messages pile up behind its dead endpoints.
    for (const id of noisyExports.slice(0, 10)) await pollInjected(app, `/exports/${id}`, noisy.auth, 120_000);
    const until = Date.now() + 30_000;
    while (hanging < 4 && Date.now() < until) await sleep(50);
    // Four of its deliveries are in flight, no more (their timeouts are 10 s away).
    await sleep(1_000);
    expect(hanging).toBe(4);

    const quietProject = await createProject(app, quiet, 'mailer-box', {}, MAILER);
    const id = await exportOf(quiet, quietProject);
    const done = await pollInjected(app, `/exports/${id}`, quiet.auth, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const waitUntil = Date.now() + 30_000;
    while (!arrived.has(id) && Date.now() < waitUntil) await sleep(20);
    expect(arrived.has(id), 'the quiet account’s delivery arrived').toBe(true);
    expect(arrived.get(id)! - Date.parse(done.finishedAt!)).toBeLessThan(2_000);
  }, 240_000);
});
