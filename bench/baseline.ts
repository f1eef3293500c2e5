// A production build of another commit (by default the last one before project versioning), for
// before/after comparisons run by the same method in the same benchmark run. The tree is read with
// `git archive` (the repository is not touched), built in a temporary directory that borrows this
// checkout's node_modules, and started like the current build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './support.js';

/** main just before the version history was added (issue 14). */
export const PRE_VERSIONING_REF = '0a5557d';

export interface BaselineBuild {
  ref: string;
  /** dist/server.js of the baseline. */
  entry: string;
  remove(): void;
}

export function buildBaseline(ref = process.env.BENCH_BASELINE_REF ?? PRE_VERSIONING_REF): BaselineBuild {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-bench-baseline-'));
  try {
    const archive = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', ref], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: dir, stdio: 'ignore' });
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: dir,
      stdio: 'inherit',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { ref, entry: path.join(dir, 'dist/server.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
