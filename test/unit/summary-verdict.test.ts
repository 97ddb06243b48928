import { describe, expect, it } from 'vitest';
import { scoreLine } from '../../src/summary/salience.js';
import { tallyBeside, verdictLine } from '../../src/summary/worth.js';

const at = (line: number, text: string) => ({ line, text });

describe('the verdict', () => {
  it('reads "N unexpected" as a failing count', () => {
    expect(scoreLine('Ran 1426 tests, 1379 results as expected, 31 unexpected, 16 skipped')).toEqual({
      kind: 'count',
      score: 13,
    });
    expect(scoreLine('Ran 1426 tests, 1426 results as expected, 0 unexpected').score).toBeLessThan(13);
  });

  it('is a failing tally further from the end when the last lines list what failed and hold none', () => {
    const tally = at(9944, 'Ran 1426 tests, 1379 results as expected, 31 unexpected, 16 skipped');
    const list = Array.from({ length: 40 }, (_, i) => at(9950 + i, `   FAILED  suite/case-${i}  (should x)`));
    const end = [at(9991, '16 skipped results:'), at(10000, 'make: *** [test] Error 1')];
    expect(verdictLine([tally, ...list, ...end], 10000)).toBe(9944);
    // Within the last lines, a count there is the verdict, as before.
    expect(verdictLine([tally, ...list, at(9995, '3 failed, 12 passed')], 10000)).toBe(9995);
  });

  it('brings the count lines right beside it: a tally of features, scenarios and steps is one verdict', () => {
    const lines = [
      'Failing scenarios:',
      '  features/a.feature:12  Select one scenario',
      '',
      '73 features passed, 4 failed, 1 skipped',
      '460 scenarios passed, 15 failed, 10 skipped',
      '1878 steps passed, 15 failed, 76 skipped, 0 undefined',
      'Took 1m2.5s',
      '      3 scenarios passed, 0 failed, 0 skipped',
    ];
    const at = (n: number) => lines[n - 1];
    expect(
      verdictLine(
        lines.map((text, i) => ({ line: i + 1, text })),
        4000,
      ),
    ).toBe(6);
    expect(tallyBeside(at, 6)).toEqual([5, 4]);
    // Only count lines of its indentation with nothing between: not a nested tally, not a blank.
    expect(tallyBeside(at, 4)).toEqual([5, 6]);
    expect(tallyBeside((n) => ['  10 passing (2s)', '  2 failing', '', '  1 pending'][n - 1], 2)).toEqual([
      1,
    ]);
    expect(tallyBeside(at, undefined)).toEqual([]);
  });
});
