// The render pool on its own, with real child processes: a task goes to a child that is ready, so
// a child still starting never holds a task a running child could take first; and a child that
// cannot start fails the tasks waiting for it one per attempt instead of being restarted for ever.
import { afterEach, describe, expect, it } from 'vitest';
import { RenderError } from '../../src/render/errors.js';
import { createRenderPool } from '../../src/render/pool.js';
import { imageFixture } from '../helpers/images.js';

type Pool = ReturnType<typeof createRenderPool>;

const DEFAULTS = { name: 'test', queue: 8, memoryMb: 1536, heapMb: 512, idleMs: 60_000 };
const analyse = (pool: Pool) =>
  pool.run('image.analyse', { input: imageFixture('tiny.png'), mimeType: 'image/png' }, { deadlineMs: 60_000, label: 'image analysis' });

let pool: Pool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('render pool', () => {
  it('a task waits for the first child that is ready, not for the one it caused to start', async () => {
    pool = createRenderPool({ ...DEFAULTS, size: 2 });
    await analyse(pool);
    expect(pool.stats()).toMatchObject({ children: 1, starting: 0, busy: 0 });

    // The first task takes the ready child; the second waits and starts a second child. The ready
    // child answers both (a tiny PNG takes milliseconds) while the other is still loading its tasks.
    const first = analyse(pool);
    const second = analyse(pool);
    await expect(second).resolves.toMatchObject({ facts: { widthPx: 1, heightPx: 1 } });
    expect(pool.stats()).toMatchObject({ children: 2, starting: 1, busy: 0, waiting: 0 });
    await expect(first).resolves.toMatchObject({ facts: { widthPx: 1, heightPx: 1 } });

    // Once started, the second child takes work like the first.
    const until = Date.now() + 60_000;
    while (pool.stats().starting > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.stats()).toMatchObject({ children: 2, starting: 0 });
    await expect(Promise.all([analyse(pool), analyse(pool)])).resolves.toHaveLength(2);
  }, 90_000);

  it('a child that cannot start fails one waiting task per attempt, and none is started once no task waits', async () => {
    // A 1 MB heap is too small for V8 to start: the child dies before it says it is ready.
    pool = createRenderPool({ ...DEFAULTS, size: 1, heapMb: 1 });
    const results = await Promise.allSettled([analyse(pool), analyse(pool)]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as RenderError;
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ reason: 'crashed', statusCode: 503, message: 'The image analysis stopped unexpectedly; retry in a few seconds.' });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.stats()).toMatchObject({ children: 0, starting: 0, waiting: 0, crashes: 2 });
  }, 90_000);
});
