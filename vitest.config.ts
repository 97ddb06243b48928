import { defineConfig } from 'vitest/config';

// Node reads NODE_EXTRA_CA_CERTS's bundle before its first line, where it is set (as on this
// machine): `node -e 0` took 0.09 s of CPU with it, 0.03 s without, and the suite starts node
// for every vitest worker, every run of the built CLI and every node fixture (search.test.ts:
// 30.3 s of CPU with it, 18.6 s without). The tests make no TLS connection; launcher.test.ts
// sets the variable itself where it tests it.
delete process.env.NODE_EXTRA_CA_CERTS;

/** Fault, chunking and in-shell harness tests: slower spawns, kept in `npm test` as their own project. */
const heavy = [
  'test/e2e/faults.test.ts',
  'test/e2e/summary-chunking.test.ts',
  'test/e2e/hook-in-shell-harness.test.ts',
];
/**
 * Load, stress, and more seeds of the chunking scenario: minutes on 2 cores. Only
 * `npm run test:slow` runs them (CI does not).
 */
const slow = ['test/e2e/load.test.ts', 'test/e2e/stress.test.ts', 'test/e2e/summary-chunking-more.test.ts'];

export default defineConfig({
  test: {
    // Set explicitly for a 2-core machine: child processes (forks) isolate the tests that change
    // process state; two workers keep both cores busy while spawned CLIs wait on I/O.
    pool: 'forks',
    maxWorkers: 2,
    // A loaded machine is slow to spawn: one default for every test, raised per project.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/fixtures-tests/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...heavy, ...slow],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'heavy', include: heavy, testTimeout: 180_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'slow', include: slow, testTimeout: 180_000, hookTimeout: 60_000 },
      },
    ],
  },
});
