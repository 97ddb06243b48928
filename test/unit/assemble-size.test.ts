import { describe, expect, it } from 'vitest';
import {
  AssembledSize,
  assemble,
  type Entry,
  gapMarker,
  similarMarker,
  size,
  type Unit,
} from '../../src/summary/assemble.js';

/** A small deterministic generator (the cases are the same on every run). */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  };
}

function unitOf(r: (n: number) => number, total: number): Unit {
  const line = 1 + r(total);
  const entries: Entry[] = [];
  const n = 1 + r(4);
  for (let k = 0; k < n; k++) {
    const l = Math.min(total, line + k + r(3));
    const kind = r(10);
    if (kind === 0 && l > 2)
      entries.push({ line: l, from: l - 1 - r(2), text: similarMarker(2, l - 1, l), role: 'meta' });
    else if (kind === 1 && l > 3)
      entries.push({ line: l, from: l - 2, text: gapMarker(l - 2, l), role: 'meta' });
    else
      entries.push({
        line: l,
        text: r(5) === 0 ? ' ' : 'x'.repeat(r(30)),
        role: 'output',
        isNew: r(12) === 0,
      });
  }
  return { entries, score: 1, line, key: `k${r(5)}`, bonus: 0 };
}

describe('AssembledSize', () => {
  it('is size(assemble(...)) of the units added and one more, on 400 random sets', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const r = random(seed);
      const total = 5 + r(200);
      const sizer = new AssembledSize(total);
      const added: Unit[] = [];
      for (let i = 0; i < 1 + r(25); i++) {
        const candidate = unitOf(r, total);
        expect(sizer.with(candidate), `seed ${seed}, unit ${i}`).toBe(
          size(assemble([...added, candidate], total)),
        );
        if (r(3) > 0) {
          added.push(candidate);
          sizer.add(candidate);
        }
      }
    }
  });
});

describe('a gap marker', () => {
  it('costs what AssembledSize counts for it, from one line to millions', () => {
    const sizer = new AssembledSize(20_000_000);
    for (const [from, to] of [
      [1, 1],
      [1, 9],
      [1, 10],
      [3, 1002],
      [998, 1999],
      [12_345, 1_234_567],
      [1, 19_999_999],
    ] as const) {
      const unit: Unit = {
        entries: [{ line: to + 1, text: 'x', role: 'output' }],
        score: 1,
        line: to + 1,
        key: 'k',
        bonus: 0,
      };
      // The unit's line after a gap from 1 (markers before and after it), numbered when between gaps.
      expect(new AssembledSize(to + 1).with(unit)).toBe(size(assemble([unit], to + 1)));
      expect(sizer.with({ ...unit, entries: [{ line: from, text: 'y', role: 'output' }] })).toBe(
        size(assemble([{ ...unit, entries: [{ line: from, text: 'y', role: 'output' }] }], 20_000_000)),
      );
    }
  });
});
