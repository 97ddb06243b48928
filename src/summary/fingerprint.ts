/**
 * What a run keeps of its lines for comparing with the next run of the same command: bounded
 * sets of line hashes (a bottom-k sketch: the k smallest hashes, so that the same lines give the
 * same set in any order, and a hash above the largest kept one is "unknown", never "new").
 */
import { keptText, TEXTS_MAX } from './gone.js';
import { isLocation } from './salience.js';

/** A run's lines as hashes: exact texts, and texts with numbers masked (with their counts). */
export interface Fingerprint {
  /** Hashes of distinct exact lines. */
  exact: number[];
  /** How many lines had each exact hash that more than one line had (absent: one each). */
  exactCounts?: [number, number][];
  /** Hashes above this one were not kept (0xffffffff: every line was kept). */
  exactMax: number;
  /** Hashes of number-masked lines with how many lines had each. */
  digits: [number, number][];
  digitsMax: number;
  /** Number-masked hashes of the salient lines (at most SALIENT_MAX, the first ones). */
  salient: number[];
  /** The number of each salient form's first line, in the order of `salient`. */
  salientLines?: number[];
  /** The text of the best salient lines, by number-masked hash (see gone.ts). */
  texts?: [number, string][];
  /** Hashes of the count lines, durations masked (see count-change.ts); absent from older runs. */
  counts?: number[];
  /** Hashes of the rows of a tally, places masked (see moved.ts); absent from older runs. */
  rows?: number[];
}

export const SALIENT_MAX = 4096;

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
  const exact = hashesOf(v.e);
  const digits = (v.d as unknown[]).filter(isCount);
  const salient = Array.isArray(v.s)
    ? (v.s as unknown[]).filter((n): n is number => Number.isInteger(n))
    : [];
  const texts = Array.isArray(v.t)
    ? (v.t as unknown[])
        .filter(
          (p): p is [number, string] =>
            Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && typeof p[1] === 'string',
        )
        .slice(0, TEXTS_MAX)
        .map(([h, t]): [number, string] => [h, keptText(t)])
    : [];
  const exactCounts = Array.isArray(v.ec) ? (v.ec as unknown[]).filter(isCount) : [];
  const counts = Array.isArray(v.c)
    ? (v.c as unknown[]).filter((n): n is number => Number.isInteger(n))
    : undefined;
  const rows = Array.isArray(v.r)
    ? (v.r as unknown[]).filter((n): n is number => Number.isInteger(n))
    : undefined;
  const salientLines =
    Array.isArray(v.sl) && v.sl.length === salient.length && v.sl.every((n) => Number.isInteger(n) && n > 0)
      ? (v.sl as number[])
      : undefined;
  return {
    exact,
    exactCounts,
    exactMax,
    digits,
    digitsMax,
    salient,
    ...(salientLines ? { salientLines } : {}),
    texts,
    ...(counts ? { counts } : {}),
    ...(rows ? { rows } : {}),
  };
}

/** 32-bit hashes as 8 hex digits each, in one string (natively: 5,000 hashes are read each run). */
function hexOf(hashes: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(hashes.length * 4);
  for (let i = 0; i < hashes.length; i++) bytes.writeUInt32BE((hashes[i] as number) >>> 0, i * 4);
  return bytes.toString('hex');
}

/** The hashes of `hexOf`'s string, up to its first character that is not a hex digit. */
function hashesOf(hex: string): number[] {
  const bytes = Buffer.from(hex, 'hex');
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(bytes.readUInt32BE(i));
  return out;
}

function isCount(p: unknown): p is [number, number] {
  return Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]);
}

/** The stored form: exact hashes as one hex string (and the counts above one), masked ones as pairs. */
export function serializeFingerprint(fp: Fingerprint): string {
  return JSON.stringify({
    v: 2,
    e: hexOf(fp.exact),
    ...(fp.exactCounts?.length ? { ec: fp.exactCounts } : {}),
    em: fp.exactMax,
    d: fp.digits,
    dm: fp.digitsMax,
    s: fp.salient,
    ...(fp.salientLines ? { sl: fp.salientLines } : {}),
    t: fp.texts ?? [],
    ...(fp.counts ? { c: fp.counts } : {}),
    ...(fp.rows ? { r: fp.rows } : {}),
  });
}

/**
 * Which of a form's lines beyond its pairs are new. A form that names a place (`src/a.ts:77:7`):
 * the first, for the lines after a change drift and the finding it brought is at the change,
 * before them (a doctool's list, a type checker's errors in one file). Any other form (a log's
 * line with its clock): the last, for a run appends.
 */
const newAtStart = (bytes: Buffer) => isLocation(bytes.toString('utf8'));

/** A line that differs from a line of the previous run only in numbers, or is one more of them. */
interface Deferred {
  line: number;
  bytes: Buffer;
}

/** Lines kept per number-masked form while it is unknown whether they pair or are new. */
const DEFER_PER_FORM = 8;
const MAX_DEFERRED_FORMS = 2048;

/**
 * Decides whether a line is new since the previous run, as a multiset: lines whose exact text was
 * there match first; then, among the lines left, those that differ from a previous line only in
 * numbers (line-number drift) pair with the previous lines of their form that no exact match
 * took. A line of a known form beyond those pairs is new (one more TS2345, one more E501). As
 * which lines pair is known only at the end, a line of a known form but new text is deferred.
 */
export class Comparison {
  /** Per exact hash of the previous run: how many of its lines are not yet matched. */
  private readonly exact: Map<number, number>;
  private readonly counts: Map<number, number>;
  /** Per number-masked form: lines that matched exactly, and the deferred ones (see newAtStart). */
  private readonly matched = new Map<number, number>();
  private readonly deferred = new Map<number, { n: number; lines: Deferred[]; first: boolean }>();
  /** Lines that matched the previous run exactly or paired with one of its lines. */
  common = 0;
  /** Lines found new. */
  fresh = 0;
  /** The deferred lines that paired with a line of the previous run (see resolve). */
  readonly drifted = new Set<number>();

  constructor(private readonly previous: Fingerprint) {
    this.exact = new Map(previous.exact.map((h) => [h, 1]));
    for (const [h, n] of previous.exactCounts ?? []) if (this.exact.has(h)) this.exact.set(h, n);
    this.counts = new Map(previous.digits);
  }

  /**
   * 'old' when a line of the exact text was there and no earlier line took it (a multiset: one
   * more copy of a line is not old), or when the hashes are beyond what was kept; 'new' when
   * neither the text nor its number-masked form was, 'maybe' when only the form was: then
   * `defer` it, and `resolve` says at the end.
   */
  check(exact: number, digits: number): 'old' | 'new' | 'maybe' {
    const left = this.exact.get(exact) ?? 0;
    if (left > 0) {
      this.exact.set(exact, left - 1);
      this.matched.set(digits, (this.matched.get(digits) ?? 0) + 1);
      this.common++;
      return 'old';
    }
    if ((this.counts.get(digits) ?? 0) > 0) return 'maybe';
    if (exact > this.previous.exactMax || digits > this.previous.digitsMax) return 'old';
    this.fresh++;
    return 'new';
  }

  /**
   * Whether the previous run kept the hash `exact` if it had the line: past the largest hash kept,
   * the line may have been there word for word (see the bottom-k sketch above).
   */
  covers(exact: number): boolean {
    return exact <= this.previous.exactMax;
  }

  /** Keeps a 'maybe' line (its bytes are copied) until `resolve`. */
  defer(line: number, digits: number, bytes: Buffer): void {
    let d = this.deferred.get(digits);
    if (!d) {
      if (this.deferred.size >= MAX_DEFERRED_FORMS) {
        this.common++;
        return;
      }
      d = { n: 0, lines: [], first: newAtStart(bytes) };
      this.deferred.set(digits, d);
    }
    d.n++;
    // The lines that may be new are kept (see newAtStart): the first ones, or the last.
    if (d.first && d.lines.length >= DEFER_PER_FORM) return;
    d.lines.push({ line, bytes: Buffer.from(bytes) });
    if (d.lines.length > DEFER_PER_FORM) d.lines.shift();
  }

  /**
   * The deferred lines that are new (of each form, the first or the last ones beyond its pairs:
   * see newAtStart), in line order.
   */
  resolve(): Deferred[] {
    const out: Deferred[] = [];
    for (const [digits, d] of this.deferred) {
      const left = Math.max(0, (this.counts.get(digits) ?? 0) - (this.matched.get(digits) ?? 0));
      const extra = Math.max(0, d.n - left);
      this.common += d.n - extra;
      this.fresh += extra;
      const cut = d.first ? Math.min(extra, d.lines.length) : Math.max(0, d.lines.length - extra);
      const [fresh, drifted] = d.first
        ? [d.lines.slice(0, cut), d.lines.slice(cut)]
        : [d.lines.slice(cut), d.lines.slice(0, cut)];
      out.push(...fresh);
      for (const l of drifted) this.drifted.add(l.line);
    }
    this.deferred.clear();
    return out.sort((a, b) => a.line - b.line);
  }

  /** A previous run with (almost) nothing in common is no baseline: it failed to start, say. */
  get related(): boolean {
    return this.fresh <= 10 || this.common * 4 >= this.fresh;
  }
}
