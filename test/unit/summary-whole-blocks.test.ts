import { describe, expect, it } from 'vitest';
import { introduced, parentsOf } from '../../src/summary/blocks.js';
import { scoreLine } from '../../src/summary/salience.js';
import { spend } from '../../src/summary/spend.js';
import { line, unit } from '../spend-units.js';

const at = (lines: string[]) => (n: number) => lines[n - 1];

describe('blocks that come whole', () => {
  it("reads a panic with its thread's id as a panic, severe enough to bring its message", () => {
    const s = scoreLine("thread 'test_basic' (32207) panicked at tests/test_version_req.rs:42:5:");
    expect(s.weak).not.toBe(true);
    expect(s.score).toBeGreaterThanOrEqual(10);
  });

  it('brings the rest of a title found across a blank line (the failing test’s name)', () => {
    const lines = [
      '  2 failing',
      '',
      '  1) context',
      '       provides the correct classes for default watermarks:',
      '',
      "      AssertionError: expected 'medium' to equal 'high'",
    ];
    expect(parentsOf(at(lines), 6)).toEqual([3, 4]);
  });

  it('brings what a line ending with a colon introduces, and nothing after a blank line', () => {
    const lines = [
      'ssl.h:1989: warning: The following parameter of f(int mode) is not documented:',
      "  parameter 'mode'",
      '',
      "  parameter 'other'",
    ];
    expect(introduced(at(lines), 1)).toEqual([2]);
    expect(introduced(at(['a: warning: no colon at the end', '  deeper']), 1)).toEqual([]);
  });

  it('brings the rest of a block whose line came alone, before another member of its template', () => {
    const a = line(82, "thread 'test_basic' (1) panicked at tests/t.rs:42:5:");
    const why = line(83, 'called `Result::unwrap()` on an `Err` value: minor');
    const b = line(286, "thread 'test_exact' (2) panicked at tests/t.rs:56:5:");
    // The block of the first comes right after its line in their template's queue: a member of
    // another finer template (another test's name) must not go ahead of it as a "distinct" one.
    const units = [unit([a], 16.81), unit([a, why], 16.75), unit([b], 16.7), unit([b, line(287, 'x')], 16.6)];
    const shown = spend(units, 230, 1000).map((e) => e.text);
    expect(shown.some((t) => t.includes('minor'))).toBe(true);
  });
});
