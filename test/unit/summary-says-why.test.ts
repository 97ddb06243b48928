import { describe, expect, it } from 'vitest';
import { blockOf } from '../../src/summary/blocks.js';

const none = () => false;
const at = (lines: string[]) => (n: number) => lines[n - 1];

describe("the line right under a failure's title that names its place", () => {
  it('is its message (testthat), or the code a compiler points at', () => {
    const testthat = [
      "Failure ('test-toJSON-logical.R:4'): Encoding Logical",
      'toJSON(as.logical(NA)) not equal to "[null]".',
      '1/1 mismatches',
    ];
    expect(blockOf(at(testthat), 1, none)).toEqual([2]);
    const gcc = [
      'src/a.c:3:9: error: expected ; before } token',
      '    3 |   int x = 1',
      'compilation terminated.',
    ];
    expect(blockOf(at(gcc), 1, none)).toContain(2);
  });

  it('is not when it is an error or a record of its own, or when the title names no place', () => {
    expect(blockOf(at(["Failure ('t.R:4'): x", 'Error: boom']), 1, none)).toEqual([]);
    expect(
      blockOf(at(['{"level":50,"msg":"at x.js:3:1 failed"}', '{"level":30,"msg":"ok"}']), 1, none),
    ).toEqual([]);
    expect(blockOf(at(['Failure: Encoding Logical', 'toJSON(NA) not equal to "[null]".']), 1, none)).toEqual(
      [],
    );
  });
});
