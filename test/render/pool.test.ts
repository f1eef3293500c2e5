// The render pool on its own, with real child processes: a task goes to a child that is ready, so
// a child still starting never holds a task a running child could take first; and a child that
// cannot start fails the tasks waiting for it one per attempt instead of being restarted for ever.
// Accounts share it fairly: one task running per account, the accounts' waiting tasks in turn.
import { afterEach, describe, expect, it } from 'vitest';
import { RenderError } from '../../src/render/errors.js';
import { createRenderPool } from '../../src/render/pool.js';
import { imageFixture } from '../helpers/images.js';
import { translucentCircles } from '../../fixtures/svg-bombs.js';

type Pool = ReturnType<typeof createRenderPool>;

const DEFAULTS = { queue: 8, accountQueue: 16, memoryMb: 1536, heapMb: 512, idleMs: 60_000 };
const analyse = (pool: Pool, account = 'account-a') =>
  pool.run(
    'image.analyse',
    { input: imageFixture('tiny.png'), mimeType: 'image/png' },
    { deadlineMs: 60_000, label: 'image analysis', account },
  );

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
    const first = analyse(pool, 'account-a');
    const second = analyse(pool, 'account-b');
    await expect(second).resolves.toMatchObject({ facts: { widthPx: 1, heightPx: 1 } });
    expect(pool.stats()).toMatchObject({ children: 2, starting: 1, busy: 0, waiting: 0 });
    await expect(first).resolves.toMatchObject({ facts: { widthPx: 1, heightPx: 1 } });

    // Once started, the second child takes work like the first.
    const until = Date.now() + 60_000;
    while (pool.stats().starting > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pool.stats()).toMatchObject({ children: 2, starting: 0 });
    await expect(Promise.all([analyse(pool, 'account-a'), analyse(pool, 'account-b')])).resolves.toHaveLength(2);
  }, 90_000);

  it('a child that cannot start fails one waiting task per attempt, and none is started once no task waits', async () => {
    // A 1 MB heap is too small for V8 to start: the child dies before it says it is ready.
    pool = createRenderPool({ ...DEFAULTS, size: 1, heapMb: 1 });
    const results = await Promise.allSettled([analyse(pool, 'account-a'), analyse(pool, 'account-b')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as RenderError;
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({
        reason: 'crashed',
        statusCode: 503,
        message: 'The image analysis stopped unexpectedly; retry in a few seconds.',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pool.stats()).toMatchObject({ children: 0, starting: 0, waiting: 0, crashes: 2 });
  }, 90_000);

  it("an account runs one task at a time: its costly tasks hold one child, and another account's task runs on the other", async () => {
    pool = createRenderPool({ ...DEFAULTS, size: 2 });
    const client = new AbortController();
    const costly = () =>
      pool!.run(
        'image.analyse',
        { input: translucentCircles(), mimeType: 'image/svg+xml' },
        { deadlineMs: 120_000, label: 'image analysis', account: 'noisy', signal: client.signal },
      );
    const noisy = [costly(), costly(), costly()].map((task) => task.catch((error: unknown) => error));
    try {
      await expect(analyse(pool, 'quiet')).resolves.toMatchObject({ facts: { widthPx: 1, heightPx: 1 } });
      expect(pool.stats()).toMatchObject({ busy: 1, waiting: 2 });
    } finally {
      client.abort();
    }
    for (const error of await Promise.all(noisy)) expect(error).toMatchObject({ reason: 'cancelled' });
  }, 120_000);

  it('waiting accounts take turns: a later account does not wait behind all of an earlier one', async () => {
    pool = createRenderPool({ ...DEFAULTS, size: 1 });
    const finished: string[] = [];
    const tracked = (account: string, label: string) => analyse(pool!, account).then(() => finished.push(label));
    await Promise.all([tracked('a', 'a1'), tracked('a', 'a2'), tracked('a', 'a3'), tracked('b', 'b1')]);
    expect(finished).toEqual(['a1', 'b1', 'a2', 'a3']);
  }, 90_000);

  it("beyond an account's queue its task is refused at once; another account's first task still waits", async () => {
    pool = createRenderPool({ ...DEFAULTS, size: 1, queue: 2, accountQueue: 2 });
    const accepted = [analyse(pool, 'a'), analyse(pool, 'a'), analyse(pool, 'b')];
    await expect(analyse(pool, 'a')).rejects.toMatchObject({ reason: 'busy', statusCode: 503 });
    // The queue is over its total now: only an account with nothing waiting or running gets in.
    await expect(analyse(pool, 'b')).rejects.toMatchObject({ reason: 'busy', statusCode: 503 });
    await expect(Promise.all([...accepted, analyse(pool, 'c')])).resolves.toHaveLength(4);
  }, 90_000);
});
