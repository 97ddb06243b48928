import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sketch } from '../../src/summary/sketch.js';

/** The sketch as it was made before (a Map, pruned to the k smallest at 2k): the reference. */
class MapSketch {
  private readonly counts = new Map<number, number>();
  max = 0xffffffff;
  constructor(private readonly k: number) {}
  add(hash: number): void {
    if (hash > this.max) return;
    this.counts.set(hash, (this.counts.get(hash) ?? 0) + 1);
    if (this.counts.size > 2 * this.k) this.prune();
  }
  private prune(): void {
    const keys = Uint32Array.from(this.counts.keys()).sort();
    this.max = keys[this.k - 1] as number;
    for (let i = this.k; i < keys.length; i++) this.counts.delete(keys[i] as number);
  }
  entries(): [number, number][] {
    if (this.counts.size > this.k) this.prune();
    return Array.from(Uint32Array.from(this.counts.keys()).sort(), (h): [number, number] => [
      h,
      this.counts.get(h) as number,
    ]);
  }
}

const hashes = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 12000 }),
  fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 12000 }),
  fc.array(fc.constantFrom(0, 1, 0xfffffffe, 0xffffffff, 7, 7, 7), { maxLength: 9000 }),
);

describe('Sketch (bottom-k with counts, batched)', () => {
  it('gives the entries and max of the Map-based sketch it replaced, for any hashes and k', () => {
    fc.assert(
      fc.property(hashes, fc.integer({ min: 1, max: 5000 }), (hs, k) => {
        const a = new Sketch(k);
        const b = new MapSketch(k);
        for (const h of hs) {
          a.add(h);
          b.add(h);
        }
        expect(a.entries()).toEqual(b.entries());
        expect(a.max).toBe(b.max);
      }),
      { numRuns: 150 },
    );
  });

  it('exactly k distinct hashes keep max at 0xffffffff; k + 1 set it to the k-th smallest', () => {
    const a = new Sketch(3);
    for (const h of [9, 5, 7, 5]) a.add(h);
    expect(a.entries()).toEqual([
      [5, 2],
      [7, 1],
      [9, 1],
    ]);
    expect(a.max).toBe(0xffffffff);
    a.add(1);
    expect(a.entries()).toEqual([
      [1, 1],
      [5, 2],
      [7, 1],
    ]);
    expect(a.max).toBe(7);
  });
});
