// Noisy neighbour: one account sends six preflights of a project of large images, two uploads of
// a small SVG with nested `use` and six 100 MP uploads at once; another account's small upload,
// preview, sheet layout and login are timed unloaded and during that load, and the web process's
// CPU time over the six preflights alone is printed. The production build at its defaults.
// Usage: npm run build && sh scripts/node.sh node_modules/.bin/tsx bench/noisy-neighbour.ts
import sharp from 'sharp';
import { cpuMicros, json, startService } from './support.js';

const service = await startService({ env: { BCRYPT_COST: '4' } });
const MAILER = { widthMm: 300, heightMm: 80, depthMm: 220 };

async function register(): Promise<{ auth: Record<string, string>; email: string }> {
  const email = `bench-${Math.random().toString(36).slice(2)}@example.com`;
  const response = await fetch(`${service.url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', name: 'Bench' }),
  });
  return { auth: { authorization: `Bearer ${(await json<{ token: string }>(response)).token}` }, email };
}

async function timed(send: () => Promise<Response>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
}

const upload = (auth: Record<string, string>, data: Buffer, type: string, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  return fetch(`${service.url}/assets`, { method: 'POST', headers: auth, body: form });
};

async function project(auth: Record<string, string>, images: string[], copies: number): Promise<string> {
  const artworks = Array.from({ length: copies }, (_, i) => ({
    id: `a${i}`,
    panelId: 'front',
    imageUrl: `/files/${images[i % images.length]}`,
    offsetX: 0,
    offsetY: 0,
    scale: 0.2,
    rotationDeg: 0,
  }));
  const response = await fetch(`${service.url}/projects`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', templateId: 'mailer-box', ...MAILER, artworkJson: { artworks } }),
  });
  return (await json<{ project: { id: string } }>(response)).project.id;
}

function nestedUse(): Buffer {
  let svg =
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
      'width="100" height="100"><defs><rect id="l0" width="1" height="1"/>';
  for (let level = 1; level <= 10; level++) svg += `<g id="l${level}">${`<use xlink:href="#l${level - 1}"/>`.repeat(10)}</g>`;
  return Buffer.from(`${svg}</defs><use xlink:href="#l10"/></svg>`);
}

const noisy = await register();
const quiet = await register();
const big = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000000' } }).png().toBuffer();
const names: string[] = [];
for (let i = 0; i < 4; i++) {
  const response = await upload(noisy.auth, big, 'image/png', `big${i}.png`);
  if (response.status === 201) names.push((await json<{ asset: { name: string } }>(response)).asset.name);
}
const noisyProject = await project(noisy.auth, names, 40);
const small = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#3366cc' } }).png().toBuffer();
const quietImage = (await json<{ asset: { name: string } }>(await upload(quiet.auth, small, 'image/png', 'small.png'))).asset.name;
const quietProject = await project(quiet.auth, [quietImage], 1);

const quietRound = async () => ({
  upload: await timed(() => upload(quiet.auth, small, 'image/png', 'small.png')),
  preview: await timed(() =>
    fetch(`${service.url}/projects/${quietProject}/preview?width=${800 + Math.floor(Math.random() * 400)}`, { headers: quiet.auth }),
  ),
  layout: await timed(() =>
    fetch(`${service.url}/projects/${quietProject}/layout?sheetWidthMm=${700 + Math.floor(Math.random() * 300)}`, { headers: quiet.auth }),
  ),
  login: await timed(() =>
    fetch(`${service.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: quiet.email, password: 'correct horse battery' }),
    }),
  ),
});

await quietRound();
const unloaded = await quietRound();

const cpuBefore = cpuMicros(service.pid);
const preflights = await Promise.all(
  Array.from({ length: 6 }, () => timed(() => fetch(`${service.url}/projects/${noisyProject}/preflight`, { headers: noisy.auth }))),
);
const preflightCpuS = (cpuMicros(service.pid) - cpuBefore) / 1e6;

const load = Promise.all([
  ...Array.from({ length: 6 }, (_, i) =>
    timed(() =>
      fetch(`${service.url}/projects/${noisyProject}/preflight?condition=${i % 2 ? 'fogra39' : 'gracol2006'}`, { headers: noisy.auth }),
    ),
  ),
  ...Array.from({ length: 2 }, () => timed(() => upload(noisy.auth, nestedUse(), 'image/svg+xml', 'nested.svg'))),
  ...Array.from({ length: 6 }, (_, i) => timed(() => upload(noisy.auth, big, 'image/png', `big-load${i}.png`))),
]);
await new Promise((resolve) => setTimeout(resolve, 500));
const loaded = await quietRound();
const noisyAnswers = await load;

const row = (what: string, a: { status: number; ms: number }, b: { status: number; ms: number }) =>
  `${what}: unloaded ${a.ms} ms (${a.status}), under load ${b.ms} ms (${b.status}), +${b.ms - a.ms} ms`;
console.log(`noisy neighbour — ${row('small upload', unloaded.upload, loaded.upload)}`);
console.log(`noisy neighbour — ${row('preview', unloaded.preview, loaded.preview)}`);
console.log(`noisy neighbour — ${row('layout', unloaded.layout, loaded.layout)}`);
console.log(`noisy neighbour — ${row('login', unloaded.login, loaded.login)}`);
console.log(
  `noisy neighbour — six preflights (40 artworks of four 100 MP PNGs): ` +
    `${preflights.map((p) => `${p.status}/${p.ms}`).join(', ')} ms; web process CPU ${preflightCpuS.toFixed(2)} s`,
);
console.log(
  `noisy neighbour — the noisy account's own answers under load (status/ms): ${noisyAnswers.map((a) => `${a.status}/${a.ms}`).join(', ')}`,
);
await service.stop();
