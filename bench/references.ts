// The references the service is compared against, each in its own process: the catalog's bare
// servers (bench/reference-server.ts) and the database routes' node:http + pg (bench/reference-db-server.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, JWT_SECRET, ROOT } from './support.js';

export interface Reference {
  url: string;
  pid: number;
  stop(): void;
}

/** The kinds bench/reference-server.ts serves GET /templates as (described there). */
export type CatalogReferenceKind = 'logging' | 'node' | 'fastify' | 'fastify-logging';

export async function startCatalogReference(kind: CatalogReferenceKind): Promise<Reference> {
  const port = await freePort();
  // stdout to /dev/null, as the service's (bench/support.ts): the logging references' lines go there.
  const script = path.join(ROOT, 'bench/reference-server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
  });
  await new Promise<void>((resolve) => child.stdio[3]!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * The bare node:http + pg server on the service's database: with its statements prepared once per
 * connection like the service's, or (unnamed) parsed and planned on every use, the reference the
 * database routes' target was set against.
 */
export async function startDatabaseReference(databaseUrl: string, { unnamed = false } = {}): Promise<Reference> {
  const port = await freePort();
  const script = path.join(ROOT, 'bench/reference-db-server.ts');
  const poolSize = process.env.DATABASE_POOL_SIZE ?? '10';
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(port), databaseUrl, JWT_SECRET, poolSize], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', REFERENCE_UNNAMED: unnamed ? '1' : '0' },
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
