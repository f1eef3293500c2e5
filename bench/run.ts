// npm run bench: measures the production build against the physical limit of this machine.
// PostgreSQL when DATABASE_URL is set (a fresh database, dropped afterwards), else the embedded engine.
// Runs every workload of bench/workloads/ in turn, or only those named: npm run bench -- catalog v1-key-check
// (BENCH_ONLY=catalog,v1-key-check the same). Prints one table and writes the figures to bench/results/.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { register, type Account } from './clients.js';
import { CONNECTIONS, DURATION, WARMUP } from './load.js';
import { startCatalogReference, type CatalogReferenceKind, type Reference } from './references.js';
import { rowLine, rowTable, type Row } from './rows.js';
import { createDatabase, ROOT, settle, startService, type RunningService } from './support.js';
import type { Bench, Workload } from './workload.js';
import { catalog } from './workloads/catalog.js';
import { catalogFiltered } from './workloads/catalog-filtered.js';
import { containerPrint } from './workloads/container-print.js';
import { dieFormats } from './workloads/die-formats.js';
import { exportJobs } from './workloads/exports.js';
import { finishes } from './workloads/finishes.js';
import { imageUploads } from './workloads/image-uploads.js';
import { logins } from './workloads/logins.js';
import { models } from './workloads/models.js';
import { print } from './workloads/print.js';
import { printPdfx } from './workloads/print-pdfx.js';
import { printPhotos } from './workloads/print-photos.js';
import { projectCycle } from './workloads/project-cycle.js';
import { projectList } from './workloads/project-list.js';
import { serveFile } from './workloads/serve-file.js';
import { startup } from './workloads/startup.js';
import { storage } from './workloads/storage.js';
import { upload25Mib } from './workloads/upload-25mib.js';
import { v1KeyCheck } from './workloads/v1-key-check.js';
import { versionHistory } from './workloads/version-history.js';
import { mockups } from './workloads/mockups.js';
import { noisyNeighbour } from './workloads/noisy-neighbour.js';
import { viewer } from './workloads/viewer.js';

/** In the order they run: the shared service's workloads first, then those that start their own or none. */
const WORKLOADS: readonly Workload[] = [
  catalog,
  catalogFiltered,
  v1KeyCheck,
  projectList,
  projectCycle,
  versionHistory,
  logins,
  upload25Mib,
  imageUploads,
  serveFile,
  storage,
  startup,
  print,
  printPdfx,
  finishes,
  containerPrint,
  printPhotos,
  models,
  dieFormats,
  exportJobs,
  viewer,
  mockups,
  noisyNeighbour,
];

function selectedWorkloads(): Workload[] {
  const names = [...process.argv.slice(2), ...(process.env.BENCH_ONLY?.split(',') ?? [])].map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !WORKLOADS.some((workload) => workload.name === name));
  if (unknown.length > 0) {
    throw new Error(`Unknown workload ${unknown.join(', ')}; the workloads: ${WORKLOADS.map((workload) => workload.name).join(', ')}`);
  }
  return names.length === 0 ? [...WORKLOADS] : WORKLOADS.filter((workload) => names.includes(workload.name));
}

/** The shared service, its account and the catalog references, each started on first use. */
class SharedService {
  #service: Promise<RunningService> | undefined;
  #owner: Promise<Account> | undefined;
  readonly #references = new Map<CatalogReferenceKind, Promise<Reference>>();

  constructor(private readonly databaseUrl: string | undefined) {}

  service(): Promise<RunningService> {
    return (this.#service ??= this.#start());
  }

  async #start(): Promise<RunningService> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pf-bench-data-'));
    const service = await startService({ databaseUrl: this.databaseUrl, dataDir });
    if (this.databaseUrl) await settle(this.databaseUrl);
    return service;
  }

  owner(): Promise<Account> {
    return (this.#owner ??= this.service().then((service) => register(service.url, 0)));
  }

  reference(kind: CatalogReferenceKind): Promise<Reference> {
    let reference = this.#references.get(kind);
    if (!reference) this.#references.set(kind, (reference = startCatalogReference(kind)));
    return reference;
  }

  async stop(): Promise<void> {
    for (const reference of this.#references.values()) (await reference).stop();
    this.#references.clear();
    await (await this.#service)?.stop();
    this.#service = undefined;
    this.#owner = undefined;
  }
}

async function main(): Promise<void> {
  const workloads = selectedWorkloads();
  const engine = process.env.DATABASE_URL ? 'postgres' : 'embedded';
  const cores = cpus();
  console.log(
    `Benchmark on ${engine}, ${cores.length} cores (${cores[0]?.model}), ${DURATION}s per workload after ${WARMUP}s warm-up, ` +
      `${CONNECTIONS} connections; workloads: ${workloads.map((workload) => workload.name).join(', ')}`,
  );
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL) : undefined;
  const shared = new SharedService(database?.url);
  const rows: Row[] = [];
  const bench: Bench = {
    database,
    service: () => shared.service(),
    owner: () => shared.owner(),
    reference: (kind) => shared.reference(kind),
    record: (row) => {
      rows.push(row);
      console.log(rowLine(row));
    },
  };
  try {
    for (const [index, workload] of workloads.entries()) {
      await workload.run(bench);
      // The shared service stops once no later workload measures it, before those that start their own.
      if (!workloads.slice(index + 1).some((later) => later.usesService)) await shared.stop();
    }
  } finally {
    await shared.stop();
    await database?.drop();
  }

  const resultsDir = path.join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `bench-${engine}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ engine, cpus: cores.length, durationSeconds: DURATION, rows }, null, 2));
  console.log(`\n${rowTable(rows)}`);
  console.log(`\nWritten to ${path.relative(ROOT, file)}`);
}

await main();
