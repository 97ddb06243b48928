/**
 * A bottom-k sketch of 32-bit hashes with counts: the k smallest distinct hashes added, each with
 * how many times it was added, and `max`, the largest kept when more than k distinct hashes came
 * (a hash above it is "unknown", never "new"), else 0xffffffff. The result depends only on the
 * multiset of hashes added, never on their order.
 *
 * Every line of an output's first MiBs is added to two of them, so adding is made cheap: hashes
 * are gathered in a small typed array and merged, sorted, into the kept ones a batch at a time
 * (no Map, no object per hash).
 */

const ALL = 0xffffffff;
const BATCH = 16384;

export class Sketch {
  /** The kept hashes, ascending, and their counts (the first `size` of each). */
  private keys = new Uint32Array(0);
  private counts = new Uint32Array(0);
  private size = 0;
  /** Hashes added since the last merge. */
  private readonly batch = new Uint32Array(BATCH);
  private n = 0;
  private cut = ALL;

  constructor(private readonly k: number) {}

  add(hash: number): void {
    if (hash > this.cut) return;
    this.batch[this.n++] = hash;
    if (this.n === BATCH) this.merge();
  }

  /** The largest hash kept when more than k distinct hashes were added, else 0xffffffff. */
  get max(): number {
    this.merge();
    return this.cut;
  }

  /** The kept hashes, ascending, with their counts. */
  entries(): [number, number][] {
    this.merge();
    const out: [number, number][] = [];
    for (let i = 0; i < this.size; i++) out.push([this.keys[i] as number, this.counts[i] as number]);
    return out;
  }

  /** Merges the batch into the kept hashes, keeping the k smallest. */
  private merge(): void {
    if (this.n === 0) return;
    const batch = this.batch.subarray(0, this.n).sort();
    this.n = 0;
    const keys = new Uint32Array(Math.min(this.size + batch.length, this.k + 1));
    const counts = new Uint32Array(keys.length);
    let m = 0;
    let i = 0;
    let j = 0;
    while (m < keys.length && (i < this.size || j < batch.length)) {
      const a = i < this.size ? (this.keys[i] as number) : Number.POSITIVE_INFINITY;
      const b = j < batch.length ? (batch[j] as number) : Number.POSITIVE_INFINITY;
      const h = a <= b ? a : b;
      let c = 0;
      if (a === h) c += this.counts[i++] as number;
      while (j < batch.length && batch[j] === h) {
        c++;
        j++;
      }
      keys[m] = h;
      counts[m++] = c;
    }
    // One more than k distinct: the k smallest are kept, and hashes above the largest are unknown.
    if (m > this.k) {
      m = this.k;
      this.cut = keys[m - 1] as number;
    }
    this.keys = keys;
    this.counts = counts;
    this.size = m;
  }
}
