/**
 * What a run keeps of its lines for comparing with the next run of the same command: bounded
 * sets of line hashes (a bottom-k sketch: the k smallest hashes, so that the same lines give the
 * same set in any order, and a hash above the largest kept one is "unknown", never "new").
 */

/** A run's lines as hashes: exact texts, and texts with numbers masked (with their counts). */
export interface Fingerprint {
  /** Hashes of distinct exact lines. */
  exact: number[];
  /** Hashes above this one were not kept (0xffffffff: every line was kept). */
  exactMax: number;
  /** Hashes of number-masked lines with how many lines had each. */
  digits: [number, number][];
  digitsMax: number;
  /** Number-masked hashes of the salient lines (at most SALIENT_MAX, the first ones). */
  salient: number[];
}

export const SALIENT_MAX = 4096;

const ALL = 0xffffffff;

/** A bottom-k sketch of hashes with counts. */
export class Sketch {
  private readonly counts = new Map<number, number>();
  max = ALL;
  constructor(private readonly k: number) {}

  add(hash: number): void {
    if (hash > this.max) return;
    this.counts.set(hash, (this.counts.get(hash) ?? 0) + 1);
    if (this.counts.size > 2 * this.k) this.prune();
  }

  private prune(): void {
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    this.max = keys[this.k - 1] as number;
    for (let i = this.k; i < keys.length; i++) this.counts.delete(keys[i] as number);
  }

  entries(): [number, number][] {
    if (this.counts.size > this.k) this.prune();
    return [...this.counts.entries()].sort((a, b) => a[0] - b[0]);
  }
}

export const EXACT_K = 8192;
export const DIGITS_K = 4096;

/** Parses a stored fingerprint; undefined unless well formed. */
export function parseFingerprint(value: unknown): Fingerprint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.v !== 2 || typeof v.e !== 'string' || !Array.isArray(v.d)) return undefined;
  const exactMax = Number(v.em);
  const digitsMax = Number(v.dm);
  if (!Number.isInteger(exactMax) || !Number.isInteger(digitsMax)) return undefined;
  const exact: number[] = [];
  for (let i = 0; i + 8 <= v.e.length; i += 8) exact.push(Number.parseInt(v.e.slice(i, i + 8), 16));
  const digits = (v.d as unknown[]).filter(
    (p): p is [number, number] =>
      Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]),
  );
  const salient = Array.isArray(v.s)
    ? (v.s as unknown[]).filter((n): n is number => Number.isInteger(n))
    : [];
  return { exact: exact.filter((n) => !Number.isNaN(n)), exactMax, digits, digitsMax, salient };
}

/** The stored form: exact hashes as one hex string, masked ones as pairs. */
export function serializeFingerprint(fp: Fingerprint): string {
  return JSON.stringify({
    v: 2,
    e: fp.exact.map((h) => h.toString(16).padStart(8, '0')).join(''),
    em: fp.exactMax,
    d: fp.digits,
    dm: fp.digitsMax,
    s: fp.salient,
  });
}

/**
 * Decides line by line whether a line is new since the previous run: its exact text was not
 * there, and no line that differed only in numbers is left to pair with it.
 */
export class Comparison {
  private readonly exact: Set<number>;
  private readonly left: Map<number, number>;
  /** Lines that matched the previous run exactly or paired with one of its lines. */
  common = 0;
  /** Lines found new. */
  fresh = 0;

  constructor(private readonly previous: Fingerprint) {
    this.exact = new Set(previous.exact);
    this.left = new Map(previous.digits);
  }

  isNew(exact: number, digits: number): boolean {
    const left = this.left.get(digits);
    if (left !== undefined && left > 0) {
      this.left.set(digits, left - 1);
      this.common++;
      return false;
    }
    if (this.exact.has(exact)) {
      this.common++;
      return false;
    }
    if (exact > this.previous.exactMax || digits > this.previous.digitsMax) return false;
    this.fresh++;
    return true;
  }

  /** A previous run with (almost) nothing in common is no baseline: it failed to start, say. */
  get related(): boolean {
    return this.fresh <= 10 || this.common * 4 >= this.fresh;
  }
}
