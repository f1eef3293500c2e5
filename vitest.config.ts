import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on sockets, child processes, timers and the database rather than compute:
    // three at a time keep two cores busy (vitest's default on two cores is one file at a time).
    maxWorkers: 3,
  },
});
