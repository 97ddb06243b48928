import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

/** Syllables of made-up words: each suite title a word, its own template, as a listing's suites are. */
const SYL = ['ka', 'lo', 'mi', 'ne', 'pu', 'ri', 'so', 'tu', 'va', 'ze'];
const title = (i: number) => `  ${SYL[i % 10]}${SYL[Math.floor(i / 10) % 10]}${SYL[(i * 7) % 10]}`;

describe('failing units named by their report titles', () => {
  it('shows every numbered failure title of a report, not the suite titles of the run it follows', () => {
    // A spec listing of 100 suites, each a title of its own and passing checks, then a report of
    // five failures: `N) suite` above the test's name, its message and its location.
    const listing = Array.from({ length: 100 }, (_, i) => [
      title(i),
      ...Array.from({ length: 6 }, (_, k) => `    ✔ should handle case ${k}`),
      '',
    ]).flat();
    const failure = (n: number) => [
      `  ${n}) ${SYL[n]}suite`,
      `       should compute case ${n} exactly:`,
      '',
      `      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:`,
      '      + actual - expected',
      '',
      `      -${n}00`,
      `      +${n}01`,
      `      at Context.<anonymous> (test/unit/case${n}.test.js:${n}5:12)`,
      '',
    ];
    const report = ['  594 passing (2s)', '  5 failing', '', ...[1, 2, 3, 4, 5].flatMap(failure)];
    const out = summarize([...listing, ...report].join('\n'), facts, { budget: 3000 });
    for (const n of [1, 2, 3, 4, 5]) expect(out).toContain(`${n}) ${SYL[n]}suite`);
  });
});
