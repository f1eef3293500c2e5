// Writes the OpenAPI document the app serves at /openapi.json to a file (default: stdout), built
// by buildApp on a throw-away in-memory database: `tsx scripts/dump-openapi.ts openapi.json`.
// `--mockup` dumps the document of a deployment with MOCKUP_ENABLED=true (the default's plus
// GET /projects/{id}/mockup); the committed client is generated from the default's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pf-openapi-'));
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: path.join(dir, 'data'),
  UPLOAD_DIR: path.join(dir, 'uploads'),
  JWT_SECRET: 'openapi-dump-secret-of-at-least-32-characters',
  API_KEY_SECRET: 'ab'.repeat(32),
  LOG_LEVEL: 'silent',
  MOCKUP_ENABLED: process.argv.includes('--mockup') ? 'true' : 'false',
});
const app = await buildApp({ ...config, database: { kind: 'embedded', dataDir: 'memory://' } }, { logger: false });
try {
  await app.ready();
  const json = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  const out = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (out) writeFileSync(out, json);
  else process.stdout.write(json);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
