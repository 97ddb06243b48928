/**
 * Finds the lines a guard regex matches in raw bytes, without running the regex over them: one
 * pass over the bytes with a table of the literal starts of the guard's alternatives (see
 * guard-literals.ts), keyed by the classes of the last three bytes (letters case-folded, every
 * digit one class, the other bytes of the literals in a few classes), and the regex only where a
 * literal's key bytes and then the whole literal are found, and the literal is not the whole
 * alternative. A line is
 * found exactly when the regex (case-insensitive, multiline, over the line decoded as latin1)
 * matches in it.
 *
 * The same pass counts newlines and finds lines longer than the collector holds, so that the
 * collector does no work per line for the lines that cannot matter. Bytes are read four at a
 * time (one 32-bit load; each half's two classes from one table, and whether a key ends in it
 * from another, of four classes), and each literal is keyed on its three bytes rarest in the
 * output (see guard-windows.ts); see docs/performance.md for the figures.
 *
 * `next` returns one result object, reused by the next call.
 */

import { DIGIT, foldByte, guardLiterals, type Literal } from './guard-literals.js';
import {
  BITS,
  DIGIT_CLASS,
  HIGH_CLASS,
  KEY_MASK,
  keyCounts,
  LETTER_CLASS,
  MARK_CLASS,
  NL_CLASS,
  rarestWindow,
  SPACE_CLASS,
} from './guard-windows.js';

/** Key table values: nothing, a key ending in a newline class, or 2 + the index of a list of literals. */
const NEWLINE = 1;
const PAIR_BITS = 2 * BITS;
const HOT_MASK = (1 << (4 * BITS)) - 1;
const FIRST_LIST = 2;
/** Bytes scanned with the regex before the table is made. */
const TABLE_AFTER = 256 * 1024;
/** The least piece the table is made on (see next). */
const SAMPLE_BYTES = 16 * 1024;
const NL = 10;
const CR = 13;
const ANCHORED = 1;
const COMPLETE = 2;

/** What `next` found: where the next line that matters starts, and the lines before it. */
export interface Found {
  /** The start of the next line that matches or is too long, or the end of the bytes. */
  at: number;
  /** Lines that start in [from, at) (a final line without a newline counts). */
  lines: number;
}

export class GuardScan {
  /** Per byte: its class. */
  private readonly cls = new Uint8Array(256);
  /** By three classes: 0, or FIRST_LIST + the index of the literals whose key it is. */
  private keys: Uint8Array | undefined;
  private readonly lists: Int32Array[] = [];
  /** A 32-bit view of the last ArrayBuffer scanned. */
  private words: Uint32Array | undefined;
  private wordsFor: Uint8Array | undefined;
  /** By two bytes (a 16-bit load, the first byte low): their two classes, the first high. */
  private pairs: Uint16Array = new Uint16Array(0);
  /**
   * By four classes, one bit each (128 KiB: it stays in the cache where a byte each would not):
   * set when a key ends at the third or the fourth (see quadsFrom).
   */
  private hot = new Int32Array(0);
  /**
   * Per literal: how far its start lies before the key's last byte, whether it is anchored or
   * complete, and where its codes are in `flat` (from[l] to from[l + 1]).
   */
  private back = new Int32Array(0);
  private kind = new Uint8Array(0);
  private from = new Int32Array(0);
  private flat = new Int16Array(0);
  private readonly fold = new Uint8Array(256);
  private readonly sticky: RegExp;
  private readonly whole: RegExp;
  private readonly global: RegExp;
  /** The piece last decoded for nextByRegex: its bytes, their end, and its text. */
  private textOf: Uint8Array | undefined;
  private textEnd = 0;
  private text = '';
  private readonly result: Found = { at: 0, lines: 0 };
  /** How long a piece the table is made on must be (its sample of the output), and how long not. */
  private readonly sampleBytes: number;
  private sampleWait = TABLE_AFTER;
  /** The rolling classes of the bytes before the one scanned next (a pair's worth and more). */
  private k = 0;

  /**
   * `guard` is case-insensitive; lines longer than `longBytes` are reported whatever they hold.
   */
  constructor(
    private readonly guard: RegExp,
    private readonly longBytes: number,
    /** Bytes scanned with the regex before the table is made (tests set it). */
    private tableAfter = TABLE_AFTER,
  ) {
    this.sampleBytes = Math.min(SAMPLE_BYTES, tableAfter);
    this.sticky = new RegExp(guard.source, 'imy');
    this.whole = new RegExp(guard.source, 'im');
    this.global = new RegExp(guard.source, 'gim');
  }

  /**
   * Makes the table (a few ms: worth it for a big output only), keyed on what is rare in `sample`
   * (see guard-windows.ts).
   */
  private makeTable(sample?: Uint8Array): void {
    this.tableAfter = -1;
    for (let b = 0; b < 256; b++) this.fold[b] = foldByte(b);
    const literals = this.guard.flags.includes('i') ? literalsOf(this.guard.source) : undefined;
    this.keys = literals ? this.build(literals, sample) : undefined;
    if (this.keys) this.fillPairs(this.keys);
  }

  /** The tables of the four-byte loop (see quadsFrom), from the classes and the keys. */
  private fillPairs(keys: Uint8Array): void {
    this.pairs = pairsOf(this.cls);
    const hot = new Int32Array((HOT_MASK + 1) >>> 5);
    const set = (h: number) => {
      hot[h >>> 5] = (hot[h >>> 5] as number) | (1 << (h & 31));
    };
    // Four classes are hot when their last three (a key ending at the fourth byte) or their
    // first three (at the third) are a key: for each key, the 32 of each.
    for (let key = 0; key <= KEY_MASK; key++) {
      if (keys[key] === 0) continue;
      for (let c = 0; c < 1 << BITS; c++) {
        set((c << (3 * BITS)) | key);
        set((key << BITS) | c);
      }
    }
    this.hot = hot;
  }

  /** False when every line is tried with the regex (see nextLine). */
  get filtered(): boolean {
    if (this.tableAfter >= 0) this.makeTable();
    return this.keys !== undefined;
  }

  private build(literals: Literal[], sample: Uint8Array | undefined): Uint8Array | undefined {
    const classOf = (c: number): number => {
      if (c === NL || c === CR) return NL_CLASS;
      if (c === DIGIT || (c >= 48 && c <= 57)) return DIGIT_CLASS;
      if (c >= 97 && c <= 122) return LETTER_CLASS + c - 97;
      if (c === 32) return SPACE_CLASS;
      return c >= 0x80 ? HIGH_CLASS : MARK_CLASS;
    };
    const used = new Set<number>(literals.flatMap((l) => l.codes));
    for (let b = 0; b < 256; b++) {
      const c = this.fold[b] as number;
      const k = classOf(c);
      this.cls[b] = k < SPACE_CLASS || used.has(c) ? k : 0;
    }
    const counts = sample ? keyCounts(sample, this.cls) : undefined;
    const keys = new Uint8Array(1 << (3 * BITS));
    for (let k = 0; k < keys.length; k++) if ((k & ((1 << BITS) - 1)) === NL_CLASS) keys[k] = NEWLINE;
    const listOf = new Map<number, number[]>();
    this.back = new Int32Array(literals.length);
    this.kind = new Uint8Array(literals.length);
    this.from = new Int32Array(literals.length + 1);
    this.flat = Int16Array.from(literals.flatMap((l) => l.codes));
    literals.forEach((l, i) => {
      this.from[i + 1] = (this.from[i] as number) + l.codes.length;
      this.kind[i] = (l.anchored ? ANCHORED : 0) | (l.complete ? COMPLETE : 0);
      const classes = [...(l.anchored ? [NL_CLASS] : []), ...l.codes.map(classOf)];
      const p = rarestWindow(classes, counts);
      const head = classes.slice(p, p + 3);
      this.back[i] = p + head.length - (l.anchored ? 2 : 1);
      // Fewer than three: any class before them.
      const free = 3 - head.length;
      for (let pre = 0; pre < 1 << (BITS * free); pre++) {
        const key = head.reduce((k, c) => (k << BITS) | c, pre);
        listOf.set(key, [...(listOf.get(key) ?? []), i]);
      }
    });
    for (const [key, list] of listOf) {
      if (FIRST_LIST + this.lists.length > 255) return undefined;
      keys[key] = FIRST_LIST + this.lists.length;
      this.lists.push(Int32Array.from(list));
    }
    return keys;
  }

  /**
   * Scans `buf[from..end)`, where `from` starts a line and `end` ends one (or the bytes): the
   * start of the first line the guard matches or longer than `longBytes`, and the lines before.
   */
  next(buf: Uint8Array, from: number, end: number): Found {
    const r = this.result;
    if (this.tableAfter >= 0) {
      this.tableAfter -= end - from;
      if (this.tableAfter >= 0) return this.nextByRegex(buf, from, end);
      // The table is keyed on what is rare in the piece it is made on: a short one (the end of
      // a read) tells too little, and the next is waited for (for TABLE_AFTER bytes at most).
      if (end - from < this.sampleBytes && this.sampleWait > 0) {
        this.sampleWait -= end - from;
        this.tableAfter = 0;
        return this.nextByRegex(buf, from, end);
      }
      this.makeTable(buf.subarray(from, end));
    }
    if (!this.keys) return this.nextLine(buf, from, end);
    this.k = NL_CLASS;
    r.lines = 0;
    r.at = from;
    let i = from;
    if (end - i > 64) {
      i = this.quadsFrom(buf, i, end);
      if (i < 0) return r;
    }
    for (; i < end; i++) if (this.step(buf, i, end)) return r;
    // The end reached with a last line that has no newline: it matters only when too long.
    if (r.at < end && end - r.at <= this.longBytes) {
      r.at = end;
      r.lines++;
    }
    return r;
  }

  /**
   * Scans four bytes at a time from `from` (single bytes first up to an address that is a
   * multiple of 4); returns where the byte-at-a-time scan goes on (the end, or the last bytes
   * short of four), or -1 when a line that matters was found.
   */
  private quadsFrom(buf: Uint8Array, from: number, end: number): number {
    let i = from;
    for (; (buf.byteOffset + i) % 4 !== 0; i++) if (this.step(buf, i, end)) return -1;
    const words = this.wordsOf(buf);
    const pairs = this.pairs;
    const hot = this.hot;
    let k = this.k;
    const base = (buf.byteOffset + i) >>> 2;
    const stop = base + ((end - i) >>> 2);
    for (let w = base; w < stop; w++) {
      const u = words[w] as number;
      // Little-endian: the first pair is the low half. A pair's classes go in as one 10-bit code;
      // `hot` says whether a key ends at either byte of it (its last four classes).
      k = (k << PAIR_BITS) | (pairs[u & 0xffff] as number);
      if (((hot[(k & HOT_MASK) >>> 5] as number) & (1 << (k & 31))) !== 0) {
        if (this.pair(buf, k, i + 4 * (w - base), end)) return -1;
      }
      k = (k << PAIR_BITS) | (pairs[u >>> 16] as number);
      if (((hot[(k & HOT_MASK) >>> 5] as number) & (1 << (k & 31))) !== 0) {
        if (this.pair(buf, k, i + 4 * (w - base) + 2, end)) return -1;
      }
    }
    this.k = k;
    return i + 4 * (stop - base);
  }

  /**
   * The two keys ending at `at` and `at + 1` (the pair just scanned, `k` its classes and those
   * before): true when the line either is in matters.
   */
  private pair(buf: Uint8Array, k: number, at: number, end: number): boolean {
    const keys = this.keys as Uint8Array;
    const first = keys[(k >>> BITS) & KEY_MASK] as number;
    const second = keys[k & KEY_MASK] as number;
    if (
      first === NEWLINE ? buf[at] === NL && this.newline(at) : first !== 0 && this.found(buf, first, at, end)
    )
      return true;
    return second === NEWLINE
      ? buf[at + 1] === NL && this.newline(at + 1)
      : second !== 0 && this.found(buf, second, at + 1, end);
  }

  /** Scans the byte at `i`; true when the line it is in matters (the result then says where). */
  private step(buf: Uint8Array, i: number, end: number): boolean {
    const k = (this.k << BITS) | (this.cls[buf[i] as number] as number);
    this.k = k;
    if (buf[i] === NL) return this.newline(i);
    const v = (this.keys as Uint8Array)[k & KEY_MASK] as number;
    return v !== 0 && v !== NEWLINE && this.found(buf, v, i, end);
  }

  /** A newline at `i`: true when it ends a line too long (the result's `at` is its start). */
  private newline(i: number): boolean {
    const r = this.result;
    if (i - r.at > this.longBytes) return true;
    r.lines++;
    r.at = i + 1;
    return false;
  }

  /** A 32-bit view of the whole of `buf`'s ArrayBuffer (made again only for another buffer). */
  private wordsOf(buf: Uint8Array): Uint32Array {
    const w = this.words;
    // The same piece comes back after each line found: `buffer` is a slow getter.
    if (w && buf === this.wordsFor) return w;
    this.wordsFor = buf;
    if (w && w.buffer === buf.buffer) return w;
    const ab = buf.buffer;
    this.words = new Uint32Array(ab, 0, ab.byteLength >>> 2);
    return this.words;
  }

  /**
   * `next` with the regex over the piece decoded once (for the first bytes of an output: most
   * outputs are small, and the table costs a few ms to make).
   */
  private nextByRegex(buf: Uint8Array, from: number, end: number): Found {
    const r = this.result;
    if (this.textOf !== buf || this.textEnd !== end) {
      this.textOf = buf;
      this.textEnd = end;
      this.text = latin1(buf, 0, end);
    }
    const re = this.global;
    re.lastIndex = from;
    const m = re.exec(this.text);
    // The start of the line the match is in (an empty match may sit on the newline ending it).
    const stop = !m ? end : m.index === 0 ? 0 : this.text.lastIndexOf('\n', m.index - 1) + 1;
    r.at = from;
    r.lines = 0;
    while (r.at < stop) {
      const nl = indexOfNl(buf, r.at, end);
      if (nl - r.at > this.longBytes) return r;
      r.at = nl + 1 > end ? end : nl + 1;
      r.lines++;
    }
    return r;
  }

  /**
   * `next` for a guard without literals for every part (or too many short ones): each line tried
   * with the regex.
   */
  private nextLine(buf: Uint8Array, from: number, end: number): Found {
    const r = this.result;
    r.at = from;
    r.lines = 0;
    while (r.at < end) {
      const nl = indexOfNl(buf, r.at, end);
      if (nl - r.at > this.longBytes || this.lineMatches(buf, r.at, nl)) return r;
      r.at = nl + 1 > end ? end : nl + 1;
      r.lines++;
    }
    return r;
  }

  /**
   * Whether a literal of list `v` (its key, three classes, ends at `i`) starts a match in the
   * line that starts at the result's `at`.
   */
  private found(buf: Uint8Array, v: number, i: number, end: number): boolean {
    const start = this.result.at;
    const list = this.lists[v - FIRST_LIST] as Int32Array;
    const flat = this.flat;
    const fold = this.fold;
    for (let n = 0; n < list.length; n++) {
      const l = list[n] as number;
      const s = i - (this.back[l] as number);
      const from = this.from[l] as number;
      const to = this.from[l + 1] as number;
      if (s < start || s + to - from > end) continue;
      const kind = this.kind[l] as number;
      if ((kind & ANCHORED) !== 0 && s !== start && buf[s - 1] !== CR) continue;
      let j = from;
      for (let at = s; j < to; j++, at++) {
        const b = buf[at] as number;
        const c = flat[j] as number;
        if (c === DIGIT ? b < 48 || b > 57 : fold[b] !== c) break;
      }
      if (j < to) continue;
      if ((kind & COMPLETE) !== 0) return true;
      const nl = indexOfNl(buf, s, end);
      this.sticky.lastIndex = s - start;
      if (this.sticky.test(latin1(buf, start, nl))) return true;
    }
    return false;
  }

  /** Whether the guard matches in the line `buf[s..e)` (e its newline or end). */
  lineMatches(buf: Uint8Array, s: number, e: number): boolean {
    this.whole.lastIndex = 0;
    return this.whole.test(latin1(buf, s, e));
  }
}

/** The literals of the last guard read (a guard is used many times). */
let lastLiterals: { source: string; literals: Literal[] | undefined } | undefined;

function literalsOf(source: string): Literal[] | undefined {
  if (lastLiterals?.source !== source) lastLiterals = { source, literals: guardLiterals(source) };
  return lastLiterals.literals;
}

/** The last pair table made, and the classes it was made from (a guard is used many times). */
let lastPairs: { cls: Uint8Array; pairs: Uint16Array } | undefined;

/** By two bytes (the first low): their classes in `cls`, the first high. */
function pairsOf(cls: Uint8Array): Uint16Array {
  if (lastPairs && Buffer.compare(lastPairs.cls, cls) === 0) return lastPairs.pairs;
  const pairs = new Uint16Array(1 << 16);
  for (let u = 0; u < 1 << 16; u++) pairs[u] = ((cls[u & 255] as number) << BITS) | (cls[u >>> 8] as number);
  lastPairs = { cls: Uint8Array.from(cls), pairs };
  return pairs;
}

function indexOfNl(buf: Uint8Array, from: number, end: number): number {
  const nl = buf.indexOf(NL, from);
  return nl === -1 || nl > end ? end : nl;
}

function latin1(buf: Uint8Array, s: number, e: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('latin1');
}
