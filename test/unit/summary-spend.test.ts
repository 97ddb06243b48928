import { describe, expect, it } from 'vitest';
import { spend } from '../../src/summary/spend.js';
import { line, unit } from '../spend-units.js';

describe('spending the room', () => {
  it('brings the rest of a block when its line came alone first', () => {
    // The line alone is worth a little more than with its block (the block costs bytes): once
    // it is shown, the block's variant still brings the lines that say why.
    const header = line(10, "thread 'main' panicked at src/lib.rs:42:5:");
    const message = line(11, 'called `Option::unwrap()` on a `None` value');
    const units = [unit([header], 10), unit([header, message], 9.6), unit([line(50, 'other')], 3, 't2')];
    const shown = spend(units, 2000, 100).map((e) => e.text);
    expect(shown.some((t) => t.includes('called `Option::unwrap()`'))).toBe(true);
    expect(shown.some((t) => t.includes('other'))).toBe(true);
  });
});

describe('members of a template', () => {
  it('of members worth about as much, shows the shorter first', () => {
    const long = line(
      1,
      "src/a.ts(9,1): error TS2345: Argument of type 'Record<string, T[]> | undefined' is not assignable",
    );
    const short = line(2, "src/b.ts(1,1): error TS2345: Argument of type 'number' is not assignable");
    // The longer line is worth a hair more (a position nearer an end): both say as much, and
    // the room holds one of them.
    const units = [unit([long], 10.02), unit([short], 10.0)];
    const shown = spend(units, 150, 2).map((e) => e.text);
    expect(shown.some((t) => t.includes("'number'"))).toBe(true);
  });
});
