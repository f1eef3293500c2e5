// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// generate only needs the bundled WASM, but the CLI insists on a schema-engine path existing,
// so point it at any existing file when none is configured.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
const cli = require.resolve('prisma/build/index.js');
const result = spawnSync(process.execPath, [cli, 'generate', '--config', 'prisma/prisma.config.ts'], {
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
