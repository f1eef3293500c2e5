// A production build of another commit (by default the last one before the version history), for
// before/after comparisons run by the same method in the same benchmark run. The tree is read with
// `git archive` (the repository is not touched), built in a temporary directory that borrows this
// checkout's node_modules, and started like the current build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './support.js';

/** The migration that added the version history: the baseline is the commit before the one adding it. */
const VERSIONS_MIGRATION = 'prisma/migrations/20261123010000_project_versions';

function preVersioningRef(): string {
  const added = execFileSync('git', ['-C', ROOT, 'log', '--diff-filter=A', '--format=%H', '--', VERSIONS_MIGRATION], { encoding: 'utf8' });
  const commit = added.trim().split('\n').pop();
  if (!commit) throw new Error(`${VERSIONS_MIGRATION} is not in this checkout's history: set BENCH_BASELINE_REF.`);
  return `${commit}^`;
}

export interface BaselineBuild {
  ref: string;
  /** dist/server.js of the baseline. */
  entry: string;
  remove(): void;
}

export function buildBaseline(ref = process.env.BENCH_BASELINE_REF ?? preVersioningRef()): BaselineBuild {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-bench-baseline-'));
  try {
    const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', ref], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: dir, stdio: 'ignore' });
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { ref, entry: path.join(dir, 'dist/server.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
