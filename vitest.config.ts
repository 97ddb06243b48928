import { defineConfig } from 'vitest/config';

/** Load, stress, damage and fault tests: minutes on 2 cores. `npm test` runs them; `npm run test:fast` does not. */
const slow = [
  'test/e2e/load.test.ts',
  'test/e2e/stress.test.ts',
  'test/e2e/index-damage.test.ts',
  'test/e2e/faults.test.ts',
  'test/e2e/summary-chunking.test.ts',
  'test/e2e/hook-in-shell-harness.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/fixtures-tests/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: slow,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'slow',
          include: slow,
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
