// What a workload of `npm run bench` is (bench/workloads/*.ts) and what the runner gives it.
import type { Account } from './clients.js';
import type { CatalogReferenceKind, Reference } from './references.js';
import type { Row } from './rows.js';
import type { BenchDatabase, RunningService } from './support.js';

export interface Bench {
  /** The shared service's own fresh database (PostgreSQL, when DATABASE_URL is set). */
  database: BenchDatabase | undefined;
  /** The production build every service workload measures, started on first use. */
  service(): Promise<RunningService>;
  /** An account on that service, registered on first use and shared by the workloads that need one. */
  owner(): Promise<Account>;
  /** A catalog reference server, started on first use and stopped with the service. */
  reference(kind: CatalogReferenceKind): Promise<Reference>;
  record(row: Row): void;
}

export interface Workload {
  /** What it measures; `npm run bench -- <name> …` runs only the named workloads. */
  name: string;
  /** It measures the shared service (the runner stops that after the last such workload). */
  usesService?: boolean;
  run(bench: Bench): Promise<void>;
}
