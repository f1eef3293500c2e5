import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/lib/concurrency.js';

describe('createLimiter', () => {
  it('never runs more than the limit at once and runs everything, in order', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, index) =>
        limit(async () => {
          started.push(index);
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          return index * 10;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('releases its slot when a task fails', async () => {
    const limit = createLimiter(1);
    await expect(limit(async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(limit(async () => 'next')).resolves.toBe('next');
  });
});
