/**
 * Mockups (`GET /projects/:id/mockup`) as a shop's marketing page asks for them: a mailer with its
 * design, at 1024, 2048 and 4096 px square. Cold: the service's first mockup (the browser starts,
 * the model and its texture are built); warm: the next one at the same size from another angle
 * (browser, page and model ready, a new picture). The production build with MOCKUP_ENABLED and
 * Debian's chromium (CHROMIUM_PATH). Run: npx tsx bench/mockups.ts   (also the mockups workload of
 * `npm run bench`)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { register } from './clients.js';
import { rowLine, type Row } from './rows.js';
import { startService } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIDES = [1024, 2048, 4096];
/** The default mockup deadline (MOCKUP_TIMEOUT_MS). */
const DEADLINE_MS = 60_000;

async function timedMockup(url: string, auth: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: auth });
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString('utf8')}`);
  return performance.now() - started;
}

export async function benchMockups(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const side of SIDES) {
    const service = await startService({ env: { MOCKUP_ENABLED: 'true', CHROMIUM_PATH: CHROMIUM } });
    try {
      const owner = await register(service.url, `mockup-${side}`);
      const created = await fetch(`${service.url}/projects`, {
        method: 'POST',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Mockup bench',
          templateId: 'mailer-box',
          widthMm: 300,
          heightMm: 80,
          depthMm: 220,
          artworkJson: { background: { kind: 'color', value: '#d0342c' }, finish: 'gloss' },
        }),
      });
      const { project } = (await created.json()) as { project: { id: string } };
      const base = `${service.url}/projects/${project.id}/mockup?width=${side}&height=${side}`;
      const cold = await timedMockup(`${base}&angle=three-quarter`, owner.auth);
      const warm = await timedMockup(`${base}&angle=front`, owner.auth);
      rows.push({
        name: 'mockups',
        workload: `mailer mockup ${side} × ${side} px, cold (browser start, model) and warm (another angle)`,
        figures: { 'cold ms': cold, 'warm ms': warm },
        target: `warm within the ${DEADLINE_MS / 1000} s mockup deadline`,
        met: warm < DEADLINE_MS,
      });
    } finally {
      await service.stop();
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await benchMockups()) console.log(rowLine(row));
}
