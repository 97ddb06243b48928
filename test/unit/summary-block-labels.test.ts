import { describe, expect, it } from 'vitest';
import { blockOf } from '../../src/summary/blocks.js';
import { candidate } from '../../src/summary/collected.js';
import { belongs } from '../../src/summary/line-context.js';

const none = () => false;
const at = (lines: string[]) => (n: number) => lines[n - 1];

describe('a bare label in a block brings its value', () => {
  it('takes the value under `Got:`, not the label alone (a doctest, a testify failure)', () => {
    const doctest = [
      'Expected:',
      '    [1, 2, 4]',
      'Got:',
      '    [2, 3, 5]',
      'Trying:',
      '    list(locate([]))',
    ];
    expect(blockOf(at(doctest), 1, none)).toEqual([2, 3, 4]);
    const testify = [
      '=== FAIL: . TestToml/decode/valid/integer/zero (0.00s)',
      '    toml_test.go:352: ',
      '        Error:',
      '        toml: line 2 (last key "d2"): Invalid integer "+0": cannot have leading zeroes',
      '        ',
      '        Input:',
      '        d1 = 0',
    ];
    expect(blockOf(at(testify), 1, none)).toContain(4);
  });

  it('takes the value on the same indentation (busted) or deeper (catch2), never a header or a blank', () => {
    const busted = [
      'Failure → spec/xml_spec.lua @ 12',
      'Expected:',
      '(number) 2',
      'Passed in:',
      '(number) 3',
    ];
    expect(blockOf(at(busted), 1, none)).toEqual([2, 3]);
    const label = ['FAILED:', 'Expected:', '', 'FAILED: next'];
    expect(blockOf(at(label), 1, (t) => t.startsWith('FAILED'))).toEqual([2]);
  });

  it("takes a label led by a rule's marks, when it says what was compared (tcltest)", () => {
    const tcltest = [
      '==== csv-2.1 join FAILED',
      '==== Contents of test case:',
      '',
      '    csv::join {123 {"a"} {} hello}',
      '',
      '---- Result was:',
      '123,""a"",,hello',
      '---- Result should have been (exact matching):',
      '123,"""a""",,hello',
      '==== csv-2.1 FAILED',
    ];
    expect(blockOf(at(tcltest), 1, none)).toEqual([6, 7, 8, 9]);
    // A label that says nothing of a comparison is no detail.
    expect(blockOf(at(['FAILED: x', 'Trying:', '    f(1)']), 1, none)).toEqual([]);
  });

  it('takes nothing for a label whose value is on its own line', () => {
    const inline = ['FAIL a', 'Expected: 2', 'plain words', 'Received: 3'];
    expect(blockOf(at(inline), 1, none)).toEqual([2, 4]);
  });
});

describe('a rule of one character', () => {
  it('ends a block once the block has lines, not before (unittest rules its title off its traceback)', () => {
    const doctest = [
      'Expected:',
      '    [1, 2, 4]',
      'Got:',
      '    [2, 3, 5]',
      '**********************************************************************',
      'File "/w/more.py", line 2527, in more.locate',
      'Expected:',
    ];
    expect(blockOf(at(doctest), 1, none)).toEqual([2, 3, 4]);
    const unittest = [
      'FAIL: test_x (tests.T.test_x)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/w/tests.py", line 9, in test_x',
      'AssertionError: 1 != 2',
    ];
    expect(blockOf(at(unittest), 1, none)).toEqual([4, 5]);
  });
});

describe("a label in a failure's lines read as they stream (the middle of a long output)", () => {
  it('belongs to the failure with its value, as in a block', () => {
    const c = candidate('==== csv-2.1 join FAILED', 10, 'k', 'error', 8, true, false);
    expect(belongs('---- Result was:', c, 15)).toBe(true);
    c.attached.push({ line: 15, text: '---- Result was:' });
    expect(belongs('123,""a"",,hello', c, 16)).toBe(true);
    // Not a line further down, nor a label of nothing compared.
    expect(belongs('123,""a"",,hello', c, 17)).toBe(false);
    expect(belongs('==== Contents of test case:', c, 12)).toBe(false);
  });
});
