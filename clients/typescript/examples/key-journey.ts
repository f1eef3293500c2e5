// A key-only integration through the packaged client: once the developer key is made, nothing but
// the key. A webhook with its signed test event; an export refused for preflight errors, read from
// the failed export; the design fixed and exported again; its export.succeeded event redelivered
// under the same webhook-id. Events arrive at a receiver this script runs on 127.0.0.1 (the server
// needs WEBHOOK_ALLOW_PRIVATE=true for that address) and are verified with the Standard Webhooks
// library. Compiled as an ES module (key-journey.mts) in scripts/ci-client-package.sh.
//   BASE_URL=http://127.0.0.1:3000 node key-journey.mjs
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { asFormData, createPackagingClient, type ApiError, type WebhookPayload } from 'packaging-service-client';

// A vector logo: it prints sharp at any size.
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><circle cx="100" cy="100" r="80" fill="#0f6b63"/></svg>';
const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };
const WAIT_MS = 60_000;

function check<T>(step: string, result: { data?: T; error?: ApiError | unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

interface Event {
  id: string;
  payload: WebhookPayload;
}

/** A receiver that verifies every delivery and hands the events to whoever waits for them. */
async function startReceiver() {
  const events: Event[] = [];
  let verifier: Webhook | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const payload = verifier!.verify(body, headersOf(request.headers)) as WebhookPayload;
        events.push({ id: String(request.headers['webhook-id']), payload });
        response.writeHead(204).end();
      } catch (error) {
        console.error('a delivery failed verification', error);
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    trust(secret: string) {
      verifier = new Webhook(secret);
    },
    async next(type: WebhookPayload['type'], after = 0): Promise<Event & { index: number }> {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const index = events.findIndex((event, i) => i >= after && event.payload.type === type);
        if (index >= 0) return { ...events[index]!, index };
        if (Date.now() > deadline) throw new Error(`no ${type} event within ${WAIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function headersOf(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value ?? '']));
}

async function main(): Promise<void> {
  const base = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
  const email = `key-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

  // The editor's account makes the key; from here on the key alone.
  const auth = check(
    'register',
    await createPackagingClient(base).POST('/auth/register', { body: { email, password: 'correct horse battery staple', name: 'Key' } }),
  );
  const { apiKey } = check('api key', await createPackagingClient(base, { token: auth.token }).POST('/api-keys', {}));
  const api = createPackagingClient(base, { apiKey: apiKey.key });

  const receiver = await startReceiver();
  try {
    const { webhook } = check(
      'webhook',
      await api.POST('/v1/webhooks', { body: { url: receiver.url, events: ['export.succeeded', 'export.failed'] } }),
    );
    receiver.trust(webhook.secret);
    check('test event', await api.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
    const test = await receiver.next('webhook.test');
    if (JSON.stringify(test.payload.data) !== JSON.stringify({ webhook: { id: webhook.id } })) {
      throw new Error(`webhook.test: ${JSON.stringify(test.payload)}`);
    }

    // A design whose artwork names a panel the mailer does not have: a preflight error.
    const broken = {
      artworks: [{ id: 'logo', panelId: 'lid-inside', imageUrl: '/files/missing.png', offsetX: 0, offsetY: 0, scale: 1, rotationDeg: 0 }],
    };
    const { project } = check(
      'project',
      await api.POST('/v1/projects', { body: { name: 'Key mailer', templateId: 'mailer-box', ...MAILER, artworkJson: broken } }),
    );
    const failed = await exportUntilDone(api, project.id);
    if (failed.status !== 'failed' || !failed.error?.findings?.some((finding) => finding.severity === 'error')) {
      throw new Error(`the broken design's export: ${JSON.stringify(failed)}`);
    }
    if (!failed.error.message.includes(`/v1/projects/${project.id}/preflight`)) {
      throw new Error(`not the key's route: ${failed.error.message}`);
    }
    await receiver.next('export.failed');

    // Fixed: an uploaded logo on the front panel.
    const { asset } = check(
      'upload',
      await api.POST('/v1/assets', { body: { file: new Blob([LOGO], { type: 'image/svg+xml' }) }, bodySerializer: asFormData('logo.svg') }),
    );
    const fixed = { artworks: [{ ...broken.artworks[0]!, panelId: 'front', imageUrl: asset.url }] };
    check('fix', await api.PUT('/v1/projects/{id}', { params: { path: { id: project.id } }, body: { artworkJson: fixed } }));
    const done = await exportUntilDone(api, project.id);
    if (done.status !== 'succeeded') throw new Error(`the fixed design's export: ${JSON.stringify(done)}`);
    const succeeded = await receiver.next('export.succeeded');

    // Redelivered: the same message (webhook-id) again.
    const { deliveries } = check('deliveries', await api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhook.id } } }));
    const delivery = deliveries.find((row) => row.messageId === succeeded.id);
    if (!delivery) throw new Error(`no delivery with webhook-id ${succeeded.id}`);
    check(
      'redeliver',
      await api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id: webhook.id, deliveryId: delivery.id } },
      }),
    );
    const again = await receiver.next('export.succeeded', succeeded.index + 1);
    if (again.id !== succeeded.id) throw new Error(`redelivered under ${again.id}, first sent under ${succeeded.id}`);

    console.log(
      `key only: webhook.test verified, export ${failed.id} failed with ${failed.error.findings!.length} finding(s), ` +
        `export ${done.id} succeeded, export.succeeded redelivered under ${again.id}`,
    );
  } finally {
    await receiver.close();
  }
}

async function exportUntilDone(api: ReturnType<typeof createPackagingClient>, projectId: string) {
  const created = check(
    'export',
    await api.POST('/v1/projects/{id}/exports', { params: { path: { id: projectId } }, body: { format: 'print-pdf' } }),
  );
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { export: current } = check('read export', await api.GET('/v1/exports/{id}', { params: { path: { id: created.export.id } } }));
    if (current.status === 'succeeded' || current.status === 'failed') return current;
    if (Date.now() > deadline) throw new Error(`export ${current.id} still ${current.status} after ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
