import { describe, expect, it } from 'vitest';
import { size } from '../../src/summary/assemble.js';
import { PLAIN_SHARE, spend } from '../../src/summary/spend.js';
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

describe('the order of choosing', () => {
  it('brings a unit up when another shows its line (its worth rises), before a lesser unit', () => {
    // The first member of a template is shown: the second falls to half its worth. Then a block
    // shows the second's line: the rest of the second's block is worth its whole again (as when
    // its line came alone first), more than the lesser unit, and the room holds one of them.
    const units = [
      unit([line(10, 'first member')], 13, 'x', 0.5),
      unit([line(20, 'second member'), line(21, 'why the second failed')], 9, 'x', 0.5),
      unit([line(19, 'a header'), line(20, 'second member')], 12, 'z'),
      unit([line(40, 'a lesser line that is long enough')], 7, 'y'),
    ];
    const shown = spend(units, 170, 100).map((e) => e.text);
    expect(shown.some((t) => t.includes('why the second failed'))).toBe(true);
    expect(shown.some((t) => t.includes('a lesser line'))).toBe(false);
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

describe('the plain room', () => {
  it('holds plain lines in its first part only: past it, only salient and new lines are shown', () => {
    // Forty plain lines, each worth more than the one error, would fill the room.
    const plain = Array.from({ length: 40 }, (_, i) =>
      unit([line(2 * i + 1, `a plain line of output, number ${i}`)], 10 - i / 10, `p${i}`),
    );
    const error = { ...unit([line(200, 'error: the one thing that failed')], 1, 'e'), salient: true };
    const news = { ...unit([line(250, 'a line new since the last run')], 1, 'n'), bonus: 1 };
    const out = spend([...plain, error, news], 1000, 300);
    const texts = out.map((e) => e.text);
    expect(texts.some((t) => t.includes('error: the one thing that failed'))).toBe(true);
    expect(texts.some((t) => t.includes('a line new since the last run'))).toBe(true);
    expect(texts.filter((t) => t.includes('a plain line')).length).toBeLessThan(40);
    // The plain lines stop at the plain room; the rest stays empty.
    expect(size(out)).toBeLessThan(1000 * PLAIN_SHARE + 150);
  });
});
