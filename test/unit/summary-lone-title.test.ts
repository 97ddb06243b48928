import { describe, expect, it } from 'vitest';
import { parentOf } from '../../src/summary/blocks.js';

const at = (lines: string[]) => (n: number) => lines[n - 1];

describe("a failure's title across a blank line", () => {
  it('is the parent of its message when it opens with a mark and stands alone (japa, jest)', () => {
    const japa = [
      '[3/5]─',
      '',
      '  ❯ Number | max / pass validation when value is same or less than the minimum value',
      '',
      '  Assertion Error: Expected validation to report "0" errors. Received "1"',
    ];
    expect(parentOf(at(japa), 5)).toBe(3);
    const jest = ['  ● Suite › adds', '', '    expect(received).toBe(expected)'];
    expect(parentOf(at(jest), 3)).toBe(1);
  });

  it('is none without a mark, deeper, or in a paragraph of more lines', () => {
    expect(parentOf(at(['  plain words here', '', '  Error: x']), 3)).toBeUndefined();
    expect(parentOf(at(['    ❯ deeper title', '', '  Error: x']), 3)).toBeUndefined();
    expect(parentOf(at(['  some line', '  ❯ second line', '', '  Error: x']), 4)).toBeUndefined();
  });
});
