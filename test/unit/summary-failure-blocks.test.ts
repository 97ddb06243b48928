import { describe, expect, it } from 'vitest';
import { parentOf } from '../../src/summary/blocks.js';
import { scoreLine } from '../../src/summary/salience.js';
import { spend } from '../../src/summary/spend.js';
import { summarize } from '../../src/summary/summarize.js';
import { line, unit } from '../spend-units.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

describe("a failure's block", () => {
  it('is worth, once its line came alone, what the whole block was: its own line is no other member', () => {
    // The line alone first (its block costs bytes), then the room holds one more line: the
    // message under it, worth more than a line of another template, not the other line.
    const header = line(10, 'Assertion with == failed');
    const message = line(11, '  left:  {:ok, 1}');
    const units = [
      unit([header], 10, 't1', 0.3),
      unit([header, message], 9.6, 't1', 0.3),
      unit([line(30, 'other line of another kind')], 5, 't2', 0.3),
    ];
    // Room for the line and one of the two others.
    const shown = spend(units, 140, 40).map((e) => e.text);
    expect(shown.some((t) => t.includes('left:'))).toBe(true);
    expect(shown.some((t) => t.includes('other line'))).toBe(false);
  });

  it('takes as parent a title across a blank line when the lines under the title are deeper', () => {
    const mocha = [
      '  1 failing',
      '',
      '  1) python',
      '       should markup numbers:',
      '',
      '      AssertionError: x',
    ];
    expect(parentOf((n) => mocha[n - 1], 6)).toBe(3);
    // A one-line paragraph is no such title.
    expect(parentOf((n) => ['', 'Summary of things', '', '  × x'][n - 1], 4)).toBeUndefined();
  });

  it("gives no severity to a suite's title over passing checks, and shows the failure's title over a long diff", () => {
    const suite = (title: string, n: number) => [
      `    ${title}`,
      ...Array.from({ length: n }, (_, i) => `      ✔ should handle case ${title.length * 10 + i}`),
    ];
    const titles = ['error handling', 'invalid status codes', 'when JSON is invalid', 'on failure'];
    const spec = Array.from({ length: 24 }, (_, i) => [
      ...suite(`${titles[i % 4]} ${'x'.repeat(i)}`, 8),
      ...suite(`plain ${i}`, 4),
    ]).flat();
    const long = (sign: string, i: number) =>
      `      ${sign}<span class="hljs-number">.${i}e10</span>, ${'<span class="hljs-number">.9</span>, '.repeat(8)}`;
    const failing = [
      '',
      '  300 passing (7s)',
      '  1 failing',
      '',
      '  1) python',
      '       should markup numbers:',
      '',
      "      AssertionError: expected '<span>1</span>' to equal '<span>2</span>'",
      '      + expected - actual',
      '',
      ...[1, 2, 3].flatMap((i) => [long('-', i), long('+', i)]),
      '',
      '      at Assertion.fail (node_modules/should/cjs/should.js:275:17)',
      '      at Context.<anonymous> (test/markup/index.js:40:32)',
      '',
    ];
    // A budget the titles could fill (with little room to spare once the failure is shown).
    const out = summarize([...spec, ...failing].join('\n'), facts, { budget: 1700 });
    expect(out).toContain('1) python');
    expect(out).toContain('AssertionError: expected');
    expect(out).toContain('test/markup/index.js:40:32');
    expect(out).not.toContain('error handling x');
  });
});

describe('severity words', () => {
  it('reads an error word that opens a line as more than one inside a name', () => {
    const name = scoreLine('  * test error conditions eos too early (35.7ms) [L#128]');
    expect(scoreLine('     Assertion with == failed').score).toBeGreaterThan(name.score);
    expect(scoreLine('Invalid integer "+0": cannot have leading zeroes').score).toBeGreaterThan(name.score);
    // A word in a table of counts is no message.
    expect(scoreLine('errors               82').score).toBe(name.score);
  });

  it("reads a passing check's number as its number, not a count of tests", () => {
    expect(scoreLine('ok 853 test case: []=a&[]=b& []=1, repeat').kind).not.toBe('count');
    expect(scoreLine('# tests 1045').kind).toBe('count');
  });
});

describe('the ends of a failed run', () => {
  it('keeps the end, where the verdict is, but gives the first line no room before what failed', () => {
    const words = Array.from(
      { length: 40 },
      (_, k) => `${'abcdefghij'[k % 10]}${'klmnopqrst'[Math.floor(k / 10)]}`,
    );
    // Distinct errors (each of its own template: as many words as its number), more than the
    // room holds.
    const errors = Array.from(
      { length: 30 },
      (_, i) => `src/m${i}.c:${i + 3}:1: error: ${words.slice(0, 2 + i).join(' ')} undeclared`,
    );
    const rule = '-'.repeat(40);
    const text = [rule, ...Array.from({ length: 40 }, () => rule), ...errors, 'make: *** [all] Error 1'].join(
      '\n',
    );
    // At the budget of 2,000 characters the errors overflow.
    const failed = summarize(text, facts, { budget: 2000 });
    expect(failed.split('\n')[1]).not.toBe(rule);
    expect(failed).toContain('make: *** [all] Error 1');
  });
});
