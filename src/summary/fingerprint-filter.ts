/**
 * Finds the lines of a span of output that the salience prefilter (`buildPrefilter`) matches,
 * at several times the speed of running that regex over the whole span.
 *
 * Why this shape: the regex costs about 2.5 ns a byte (with the latin1 decoding and lower-casing
 * it needs), which made the summary the bottleneck of capturing a large output. Here a SIMD loop
 * in WebAssembly looks, 16 positions at a time, for places where one of the prefilter's
 * fingerprints (`prefilterFingerprints`: up to 4 bytes that every match contains) may start; only
 * the lines holding such a place are given to the regex, line by line. So the answer is exactly
 * the regex's, whatever the fingerprints: they only decide how many lines are looked at closely.
 *
 * The loop is the "Teddy" algorithm of Hyperscan and Rust's aho-corasick: the fingerprints are
 * spread over 16 buckets; for each of the 4 bytes of a fingerprint, two 16-entry tables indexed
 * by the byte's low and high nibble (i8x16.swizzle) give the buckets whose fingerprint allows that
 * byte there; a position is a candidate when some bucket allows all 4 bytes. Tables are built
 * here from the fingerprints (so command-line hints are included), allowing both cases of a
 * letter: the regex sees the text lower-cased.
 *
 * The module in text form; `node scripts/assemble-prefilter.mjs` assembles it into the bytes below:
 *
 *   (module
 *     (memory (export "memory") 1)
 *     ;; the first position in [p, end) (whole 16-byte blocks: the caller ignores positions
 *     ;; >= end) where a fingerprint may start, or -1. The 16 tables are at [0, 256): table
 *     ;; (j, k, h) at 16 * (8j + 2k + h) for buckets 8j..8j+7, fingerprint byte k, h = 0 indexed
 *     ;; by the low nibble, 1 by the high one.
 *     (func (export "find") (param $p i32) (param $end i32) (result i32)
 *       (local $t0 v128) ... (local $t15 v128) (local $nibble v128)
 *       (local $lo0 v128) ... (local $lo3 v128) (local $hi0 v128) ... (local $hi3 v128) (local $v v128)
 *       (local.set $t0 (v128.load (i32.const 0))) ... (local.set $t15 (v128.load (i32.const 240)))
 *       (local.set $nibble (i8x16.splat (i32.const 0x0f)))
 *       (block $done (loop $vec
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         ;; for k in 0..3:
 *         (local.set $lok (v128.and (local.tee $v (v128.load offset=k (local.get $p))) (local.get $nibble)))
 *         (local.set $hik (i8x16.shr_u (local.get $v) (i32.const 4)))
 *         ;; $v = OR over j of AND over k of
 *         ;;   (i8x16.swizzle (table j k 0) (local.get $lok)) & (i8x16.swizzle (table j k 1) (local.get $hik))
 *         (if (v128.any_true (local.tee $v ...))
 *           (then (return (i32.add (local.get $p)
 *             (i32.ctz (i8x16.bitmask (i8x16.ne (local.get $v) (v128.const i8x16 0 ...))))))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *         (br $vec)))
 *       (i32.const -1))
 *     ;; newlines in [p, p+n): the `count` of src/read/simd.ts
 *     (func (export "count") (param $p i32) (param $n i32) (result i32) ...))
 *
 * Where WebAssembly is not available (node --jitless), the regex runs over the whole span.
 */
import { buildPrefilter, prefilterFingerprints } from './salience.js';

const MODULE =
  'AGFzbQEAAAABBwFgAn9/AX8DAwIAAAUDAQABBxkDBm1lbW9yeQIABGZpbmQAAAVjb3VudAABCpYEAqgDARp7QQD9AAAAIQJBEP0AAAAhA0Eg/QAAACEEQTD9AAAAIQVBwAD9AAAAIQZB0AD9AAAAIQdB4AD9AAAAIQhB8AD9AAAAIQlBgAH9AAAAIQpBkAH9AAAAIQtBoAH9AAAAIQxBsAH9AAAAIQ1BwAH9AAAAIQ5B0AH9AAAAIQ9B4AH9AAAAIRBB8AH9AAAAIRFBD/0PIRICQANAIAAgAU8NASAA/QAAACIbIBL9TiETIBtBBP1tIRcgAP0AAAEiGyAS/U4hFCAbQQT9bSEYIAD9AAACIhsgEv1OIRUgG0EE/W0hGSAA/QAAAyIbIBL9TiEWIBtBBP1tIRogAiAT/Q4gAyAX/Q79TiAEIBT9DiAFIBj9Dv1O/U4gBiAV/Q4gByAZ/Q79Tv1OIAggFv0OIAkgGv0O/U79TiAKIBP9DiALIBf9Dv1OIAwgFP0OIA0gGP0O/U79TiAOIBX9DiAPIBn9Dv1O/U4gECAW/Q4gESAa/Q79Tv1O/VAiG/1TBEAgACAb/QwAAAAAAAAAAAAAAAAAAAAA/ST9ZGhqDwsgAEEQaiEADAALC0F/C2oCA38Be0EK/Q8hBSAAIAFqIQIgACABQXBxaiEDAkADQCAAIANPDQEgBCAA/QAAACAF/SP9ZGlqIQQgAEEQaiEADAALCwJAA0AgACACTw0BIAQgAC0AAEEKRmohBCAAQQFqIQAMAAsLIAQL';

// The few WebAssembly names used here (the Node 20 typings do not declare the global).
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  find(p: number, end: number): number;
  count(p: number, n: number): number;
}

const PAGE = 65536;
const BUCKETS = 16;
const WIDTH = 4;
/** Where the span is copied to, after the tables. */
const DATA = 256;
/** Bytes read past the end of the span: 3 for the last block's shifted loads, rounded up. */
const SLACK = 32;

/** Finds the lines of a span that the prefilter matches. */
export interface LineFinder {
  /** Sets the span to search: whole lines (the last may lack its newline). */
  reset(span: Buffer): void;
  /** Start of the first line at or after `from` (a line start) that the prefilter matches, or -1. */
  next(from: number): number;
  /** Newlines in the span before `pos` (fastest when asked in increasing order). */
  newlinesBefore(pos: number): number;
}

/**
 * Counts the newlines of a span in steps from the last position asked about, so that numbering
 * the lines found costs one pass over the span, not one per line.
 */
class NewlineCursor {
  private pos = 0;
  private count = 0;

  constructor(private readonly countIn: (from: number, to: number) => number) {}

  reset(): void {
    this.pos = 0;
    this.count = 0;
  }

  before(pos: number): number {
    if (pos >= this.pos) this.count += this.countIn(this.pos, pos);
    else this.count -= this.countIn(pos, this.pos);
    this.pos = pos;
    return this.count;
  }
}

function countWithIndexOf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

let counter: Exports | null | undefined;
/** Below this, a chunk's newlines are counted in JavaScript (no WebAssembly to set up). */
const COUNT_IN_WASM = 4096;

/** Newlines in `buf`: with SIMD for large chunks. */
export function countNewlines(buf: Buffer): number {
  if (buf.length < COUNT_IN_WASM) return countWithIndexOf(buf, 0, buf.length);
  counter ??= instantiate();
  if (!counter) return countWithIndexOf(buf, 0, buf.length);
  const have = counter.memory.buffer.byteLength;
  if (buf.length > have) counter.memory.grow(Math.ceil((buf.length - have) / PAGE));
  new Uint8Array(counter.memory.buffer, 0, buf.length).set(buf);
  return counter.count(0, buf.length);
}

/**
 * Building the SIMD finder's tables costs a few milliseconds in a cold process, more than the
 * regex takes over a small output: the regex runs until this many bytes have been scanned. The
 * two find the same lines, so the switch changes nothing else.
 */
const SIMD_AFTER = 1 << 20;

/**
 * A finder for the prefilter with these command-line hints: the regex for the first MiB, then
 * the SIMD one when WebAssembly can run. `mode` forces one of them (for tests).
 */
export function lineFinder(
  hints: readonly string[] = [],
  mode: 'auto' | 'simd' | 'regex' = 'auto',
): LineFinder {
  if (mode === 'regex') return new RegexFinder(hints);
  const simd = () => {
    const wasm = instantiate();
    return wasm ? new SimdFinder(wasm, hints) : null;
  };
  if (mode === 'simd') return simd() ?? new RegexFinder(hints);
  let current: LineFinder = new RegexFinder(hints);
  let scanned = 0;
  let switched = false;
  return {
    reset(span) {
      scanned += span.length;
      if (!switched && scanned > SIMD_AFTER) {
        switched = true;
        current = simd() ?? current;
      }
      current.reset(span);
    },
    next: (from) => current.next(from),
    newlinesBefore: (pos) => current.newlinesBefore(pos),
  };
}

function instantiate(): Exports | null {
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(MODULE, 'base64')))
      .exports as unknown as Exports;
  } catch {
    return null;
  }
}

/** The plain way: the prefilter regex over the whole span, lower-cased latin1. */
class RegexFinder implements LineFinder {
  private readonly re: RegExp;
  private text = '';
  private span: Buffer = Buffer.alloc(0);
  private readonly lines = new NewlineCursor((from, to) => countWithIndexOf(this.span, from, to));

  constructor(hints: readonly string[]) {
    this.re = buildPrefilter(hints);
  }

  reset(span: Buffer): void {
    // latin1: one char per byte, so string offsets are byte offsets.
    this.text = span.toString('latin1').toLowerCase();
    this.span = span;
    this.lines.reset();
  }

  newlinesBefore(pos: number): number {
    return this.lines.before(pos);
  }

  next(from: number): number {
    this.re.lastIndex = from;
    const m = this.re.exec(this.text);
    return m ? this.text.lastIndexOf('\n', m.index - 1) + 1 : -1;
  }
}

class SimdFinder implements LineFinder {
  private readonly verify: RegExp;
  private span: Buffer = Buffer.alloc(0);
  private readonly lines = new NewlineCursor((from, to) => this.wasm.count(DATA + from, to - from));

  constructor(
    private readonly wasm: Exports,
    hints: readonly string[],
  ) {
    this.verify = new RegExp(buildPrefilter(hints).source);
    new Uint8Array(wasm.memory.buffer, 0, DATA).set(buildTables(prefilterFingerprints(hints)));
  }

  reset(span: Buffer): void {
    const need = DATA + span.length + SLACK;
    const have = this.wasm.memory.buffer.byteLength;
    if (need > have) this.wasm.memory.grow(Math.ceil((need - have) / PAGE));
    new Uint8Array(this.wasm.memory.buffer, DATA, span.length).set(span);
    this.span = span;
    this.lines.reset();
  }

  newlinesBefore(pos: number): number {
    return this.lines.before(pos);
  }

  next(from: number): number {
    const span = this.span;
    for (let at = from; at < span.length; ) {
      const found = this.wasm.find(DATA + at, DATA + span.length) - DATA;
      if (found < 0 || found >= span.length) return -1;
      const start = found === 0 ? 0 : span.lastIndexOf(10, found - 1) + 1;
      let end = span.indexOf(10, found);
      if (end === -1) end = span.length;
      if (this.verify.test(span.toString('latin1', start, end).toLowerCase())) return start;
      at = end + 1;
    }
    return -1;
  }
}

/**
 * The 16 nibble tables for these fingerprints (see the module comment). Fingerprints go to
 * buckets greedily, each to the bucket whose tables it widens least (measured as how many byte
 * strings the bucket then lets through), so that similar ones share a bucket.
 */
export function buildTables(fingerprints: readonly (readonly string[])[]): Uint8Array {
  const all = fingerprints.map(nibbleSets);
  // Each bucket's nibble sets so far: lo and hi bit sets for each fingerprint byte.
  const buckets = Array.from({ length: BUCKETS }, () => ({
    lo: [0, 0, 0, 0],
    hi: [0, 0, 0, 0],
    used: false,
  }));
  const order = all.map((n, i) => ({ n, i, size: breadth(n) })).sort((a, b) => b.size - a.size || a.i - b.i);
  const tables = new Uint8Array(DATA);
  for (const { n } of order) {
    let best = 0;
    let bestCost = Number.POSITIVE_INFINITY;
    buckets.forEach((bucket, b) => {
      const widened = {
        lo: bucket.lo.map((x, k) => x | (n.lo[k] as number)),
        hi: bucket.hi.map((x, k) => x | (n.hi[k] as number)),
      };
      const cost = breadth(widened) - (bucket.used ? breadth(bucket) : 0);
      if (cost < bestCost) {
        bestCost = cost;
        best = b;
      }
    });
    const bucket = buckets[best] as (typeof buckets)[number];
    bucket.used = true;
    for (let k = 0; k < WIDTH; k++) {
      bucket.lo[k] = (bucket.lo[k] as number) | (n.lo[k] as number);
      bucket.hi[k] = (bucket.hi[k] as number) | (n.hi[k] as number);
    }
  }
  buckets.forEach((bucket, b) => {
    const bit = 1 << (b & 7);
    for (let k = 0; k < WIDTH; k++)
      for (let nibble = 0; nibble < 16; nibble++) {
        const at = 16 * (8 * (b >> 3) + 2 * k) + nibble;
        if ((bucket.lo[k] as number) & (1 << nibble)) tables[at] = (tables[at] as number) | bit;
        if ((bucket.hi[k] as number) & (1 << nibble)) tables[at + 16] = (tables[at + 16] as number) | bit;
      }
  });
  return tables;
}

/** For each byte of a fingerprint, the low and the high nibbles of the bytes allowed there, as bit sets. */
interface Nibbles {
  lo: number[];
  hi: number[];
}

/** The bytes whose lower-cased latin1 character is the key. */
let rawOf: Map<string, number[]> | undefined;

/** A byte is allowed when its lower-cased latin1 character is one the fingerprint allows. */
function nibbleSets(fingerprint: readonly string[]): Nibbles {
  if (!rawOf) {
    rawOf = new Map();
    for (let b = 0; b < 256; b++) {
      const c = String.fromCharCode(b).toLowerCase();
      rawOf.set(c, [...(rawOf.get(c) ?? []), b]);
    }
  }
  const n: Nibbles = { lo: [], hi: [] };
  for (let k = 0; k < WIDTH; k++) {
    const chars = fingerprint[k];
    let lo = chars === undefined ? 0xffff : 0;
    let hi = lo;
    for (const c of chars ?? '')
      for (const b of rawOf.get(c) ?? []) {
        lo |= 1 << (b & 15);
        hi |= 1 << (b >> 4);
      }
    n.lo.push(lo);
    n.hi.push(hi);
  }
  return n;
}

/** How many byte strings these nibble sets let through. */
function breadth(n: Nibbles): number {
  let product = 1;
  for (let k = 0; k < WIDTH; k++) product *= popcount(n.lo[k] as number) * popcount(n.hi[k] as number);
  return product;
}

function popcount(n: number): number {
  let c = 0;
  for (let x = n; x; x &= x - 1) c++;
  return c;
}
