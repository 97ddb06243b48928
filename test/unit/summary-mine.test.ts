import { describe, expect, it } from 'vitest';
import { mineTemplates } from '../../src/summary/mine.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 8, durationMs: 2500 };
const names = ['parse_value', 'print_array', 'misc_tests', 'compare_tests', 'minify', 'json_patch'];
const passed = (i: number) =>
  `${i}/300 Test #${i}: ${names[i % names.length]}_${String.fromCharCode(97 + (i % 26))} ${'.'.repeat(10 + (i % 7))}   Passed    0.0${i % 10} sec`;

describe('mineTemplates', () => {
  it('makes one template of lines that differ in a word no mask knows (a test name)', () => {
    const keys = mineTemplates([1, 2, 3, 40].map((i) => ({ text: passed(i), kind: 'plain' })));
    expect(new Set(keys.values()).size).toBe(1);
  });

  it('keeps lines of different kinds, or different words in most places, apart', () => {
    const lines = [
      { text: passed(1), kind: 'plain' },
      { text: '4/300 Test #4: parse_hex4 ........***Failed    0.05 sec', kind: 'error' },
      { text: "src/a.ts(1,2): error TS2345: Argument of type 'x' is not assignable", kind: 'error' },
      { text: "src/b.ts(3,4): warning: unused variable 'y' in this function now", kind: 'warning' },
    ];
    expect(new Set(mineTemplates(lines).values()).size).toBe(4);
  });

  it('gives the same keys to the same lines in the same order', () => {
    const lines = Array.from({ length: 50 }, (_, i) => ({ text: passed(i + 1), kind: 'plain' }));
    expect([...mineTemplates(lines)]).toEqual([...mineTemplates(lines)]);
  });
});

describe('summary of a long list of passing checks with one failure', () => {
  it('shows the failure and the verdict, and one exemplar of the passing lines, not a screenful', () => {
    const text = [
      ...Array.from({ length: 300 }, (_, i) =>
        i === 149 ? '150/300 Test #150: parse_hex4 ........***Failed    0.05 sec' : passed(i + 1),
      ),
      '',
      '99% tests passed, 1 tests failed out of 300',
      '',
      'The following tests FAILED:',
      '\t150 - parse_hex4 (Failed)',
      'Errors while running CTest',
    ].join('\n');
    const out = summarize(text, facts);
    expect(out).toContain('Test #150: parse_hex4 ........***Failed');
    expect(out.match(/Passed {4}0\.0/g)?.length ?? 0).toBeLessThanOrEqual(6);
  });
});
