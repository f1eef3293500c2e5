// Every render of the service (an upload's analysis, print file, preview, sheet layout, 3D
// texture) runs in a child process of one of two pools: `analysis` for uploads, `print` for the
// rest, so a queue of prints never holds up an upload. Each kind of work has its deadline
// (RenderConfig.timeoutsMs), and every render names the account it is for: in each pool an
// account runs one render at a time and waits its turn behind other accounts (pool.ts).
import type { RenderConfig } from '../config.js';
import { createRenderPool, type OutputFile, type PoolStats } from './pool.js';
import type { FileTaskInput, FileTaskName, TaskInput, TaskName, TaskOutput } from './tasks.js';

export { RenderError, type RenderEnd } from './errors.js';
export type { OutputFile } from './pool.js';
export { SvgTooCostlyError } from './svg-filters.js';
export { signalOnClientGone } from './client-gone.js';

export type RenderKind = keyof RenderConfig['timeoutsMs'];

const KINDS: Record<RenderKind, { pool: 'analysis' | 'print'; label: string }> = {
  analysis: { pool: 'analysis', label: 'image analysis' },
  print: { pool: 'print', label: 'print file' },
  preview: { pool: 'print', label: 'preview' },
  layout: { pool: 'print', label: 'sheet layout' },
  texture: { pool: 'print', label: '3D texture' },
  preflight: { pool: 'print', label: 'preflight' },
};

export function createRenderer(config: RenderConfig) {
  const common = {
    queue: config.queue,
    accountQueue: config.accountQueue,
    memoryMb: config.childMemoryMb,
    heapMb: config.childHeapMb,
    idleMs: config.childIdleMs,
  };
  const pools = {
    analysis: createRenderPool({ size: config.analysisChildren, ...common }),
    print: createRenderPool({ size: config.printChildren, ...common }),
  };
  return {
    /** Runs task for account in a child of kind's pool, within kind's deadline; signal cancels it. */
    run<N extends TaskName>(kind: RenderKind, task: N, input: TaskInput<N>, account: string, signal?: AbortSignal): Promise<TaskOutput<N>> {
      const { pool, label } = KINDS[kind];
      return pools[pool].run(task, input, { deadlineMs: config.timeoutsMs[kind], label, account, ...(signal ? { signal } : {}) });
    },
    /** As run(), for a task whose result is a file (a print PDF): it comes back as a stream of the unlinked file. */
    runToFile<N extends FileTaskName>(
      kind: RenderKind,
      task: N,
      input: FileTaskInput<N>,
      account: string,
      signal?: AbortSignal,
    ): Promise<OutputFile> {
      const { pool, label } = KINDS[kind];
      return pools[pool].runToFile(task, input, { deadlineMs: config.timeoutsMs[kind], label, account, ...(signal ? { signal } : {}) });
    },
    stats(): Record<keyof typeof pools, PoolStats> {
      return { analysis: pools.analysis.stats(), print: pools.print.stats() };
    },
    /** No new renders; running ones get graceMs, then their children are killed. */
    async close(graceMs = 0): Promise<void> {
      await Promise.all([pools.analysis.close(graceMs), pools.print.close(graceMs)]);
    },
  };
}

export type Renderer = ReturnType<typeof createRenderer>;
