// `npm run test:proxy`: the deployment test (a real nginx in front of a real server process).
// Kept out of `npm test`: it needs nginx (scripts/ensure-nginx.sh) and starts processes.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test-proxy/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
