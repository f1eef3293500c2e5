// The adversarial review's SVGs against the production build at its default deadlines: how long
// two small uploads at once take while the second analysis child starts, how long
// each upload takes to be answered, how long another account's small PNG upload takes while a
// render child is busy with an SVG librsvg cannot finish, and how long SIGTERM takes to exit
// during such a render. Usage: npm run build && npx tsx bench/render-bounds.ts
import sharp from 'sharp';
import { blurMorphologyBomb, translucentCircles, turbulenceBomb } from '../fixtures/svg-bombs.js';
import { register } from './clients.js';
import { startService } from './support.js';

const service = await startService({ env: { BCRYPT_COST: '4' } });

async function upload(auth: Record<string, string>, data: Buffer, type: string): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), type === 'image/png' ? 'small.png' : 'drawing.svg');
  const started = performance.now();
  const response = await fetch(`${service.url}/assets`, { method: 'POST', headers: auth, body: form });
  await response.arrayBuffer();
  return { status: response.status, ms: Math.round(performance.now() - started) };
}

const attacker = (await register(service.url, 'attacker')).auth;
const other = (await register(service.url, 'other')).auth;
const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } }).png().toBuffer();
console.log(`small PNG: ${png.length} bytes; warm-up upload ${JSON.stringify(await upload(other, png, 'image/png'))}`);
const pair = await Promise.all([upload(other, png, 'image/png'), upload(other, png, 'image/png')]);
const pairMs = pair.map((answer) => answer.ms).join(', ');
console.log(`two small PNG uploads at once, one analysis child ready and a second one starting: ${pairMs} ms`);
for (const [name, svg] of [['blur/morphology bomb', blurMorphologyBomb()], ['turbulence bomb', turbulenceBomb()]] as const) {
  console.log(`${name} (${svg.length} bytes): ${JSON.stringify(await upload(attacker, svg, 'image/svg+xml'))}`);
}
const circles = translucentCircles();
const slow = upload(attacker, circles, 'image/svg+xml');
await new Promise((resolve) => setTimeout(resolve, 1_000));
const during: number[] = [];
for (let i = 0; i < 5; i++) during.push((await upload(other, png, 'image/png')).ms);
console.log(`small PNG uploads while the circles SVG is analysed: ${during.join(', ')} ms`);
console.log(`circles SVG (${(circles.length / 1e6).toFixed(1)} MB, no filter): ${JSON.stringify(await slow)}`);

const again = upload(attacker, circles, 'image/svg+xml');
await new Promise((resolve) => setTimeout(resolve, 2_000));
const signalled = performance.now();
const exited = new Promise<void>((resolve) => service.process.once('exit', () => resolve()));
service.process.kill('SIGTERM');
await exited;
const exitMs = Math.round(performance.now() - signalled);
const answer = JSON.stringify(await again.catch((error: Error) => error.message));
console.log(`SIGTERM during an analysis → exit in ${exitMs} ms (exit code ${service.process.exitCode}); the upload: ${answer}`);
