import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import { saysFailed } from '../../src/summary/verdict-failed.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

describe('a run whose verdict counts failures', () => {
  it('reads a count of failures above zero as a failed verdict', () => {
    expect(saysFailed('575 passed and 5 failed.')).toBe(true);
    expect(saysFailed('***Test Failed*** 1 failure.')).toBe(true);
    expect(saysFailed('Tests: 0 failed, 9 passed')).toBe(false);
    expect(saysFailed('580 tests in 205 items.')).toBe(false);
  });

  it('is summarised as a failed run though it exits 0: its failure reports before its start', () => {
    // A verbose doctest: every example tried with its expected value (some an exception's
    // traceback), some failing.
    const exc = ['ValueError', 'IndexError', 'TypeError', 'RuntimeError', 'KeyError'];
    const example = (i: number) =>
      i % 10 === 3
        ? [
            'Trying:',
            `    one(it${i})`,
            'Expecting:',
            '    Traceback (most recent call last):',
            '    ...',
          ].concat([`    ${exc[i % 5]}: too few items in iterable ${i}`, 'ok'])
        : ['Trying:', `    f${i}(${i})`, 'Expecting:', `    [${i}, ${i + 1}]`, 'ok'];
    const failure = (i: number) => [
      '**********************************************************************',
      `File "/src/pkg/more.py", line ${100 * i + 7}, in pkg.more.f${i}`,
      'Failed example:',
      `    list(f${i}([0, 1, 1]))`,
      'Expected:',
      `    [${i}, 2]`,
      'Got:',
      `    [${i + 1}, 3]`,
    ];
    const out = summarize(
      [
        ...Array.from({ length: 300 }, (_, i) => example(i)).flat(),
        ...[1, 2, 3, 4].flatMap(failure),
        ...Array.from({ length: 300 }, (_, i) => example(i + 300)).flat(),
        '600 tests in 200 items.',
        '596 passed and 4 failed.',
        '***Test Failed*** 4 failures.',
      ].join('\n'),
      facts,
      { budget: 3000 },
    );
    for (const i of [1, 2, 3]) expect(out).toContain(`line ${100 * i + 7}, in pkg.more.f${i}`);
  });
});
