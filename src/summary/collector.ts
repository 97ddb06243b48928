/**
 * The streaming half of the summary: it sees every byte once, as it arrives, and keeps a bounded
 * amount of it (the start, the end, the salient and the new lines of the middle), so that a 2 GB
 * output is summarised in constant memory.
 *
 * The result depends only on the bytes, never on how they were split into chunks: every decision
 * is made per line, in line order, from the line's bytes and from bounded state that is itself a
 * function of the lines before it (the tail is the last `keepBytes` bytes exactly, look-backs read
 * the `LOOKBACK_BYTES` bytes before the line).
 *
 * Work per line is bounded and mostly avoided: lines are decoded as latin1 in pieces of about
 * SCAN_BYTES (string offsets are byte offsets), one case-insensitive guard regex runs over each
 * piece, and only lines it
 * matches (and, in the first HASH_ALL_BYTES, every line, to compare runs) are hashed; a line is
 * decoded, cleaned and scored only the first time its number-masked form is seen, or when it is
 * new since the previous run. Lines the guard skips cost one `indexOf` each. Nothing pushed is
 * kept by reference: the caller may reuse its buffer once `push` returns.
 */

import { isAscii } from 'node:buffer';
import { keyBlockStep, mayTouchKey } from '../redact.js';
import type { LineRange } from '../shield.js';
import { isBlockDetail } from './blocks.js';
import { cleanLine } from './clean.js';
import { Comparison, DIGITS_K, EXACT_K, type Fingerprint, SALIENT_MAX, Sketch } from './fingerprint.js';
import { goneTexts, looseKey, SalientTexts } from './gone.js';
import { hashLine } from './hash.js';
import { buildGuard, isLocation, type LineKind, scoreLine, template } from './salience.js';
import { BinarySniffer, copyOf } from './sniff.js';
import { isOwnLocation } from './worth.js';

/** One line of output with its 1-based number in the stored file. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** A salient or new line of the output, with the lines of the same template folded into it. */
export interface Candidate extends NumberedLine {
  kind: LineKind;
  score: number;
  /** An error word in a line that does not read as an error (see scoreLine). */
  weak?: boolean;
  /** The line's template (see `template`). */
  template: string;
  /** How many lines share this line's template (1 for a new line shown on its own). */
  count: number;
  /** Line number of the last line with the same template. */
  lastLine: number;
  /** Location lines (`--> src/x.rs:4:9`, `at main (x.c:59)`) that follow an error. */
  attached: NumberedLine[];
  /**
   * A line shown before it for context: the nearest preceding unindented line for an indented
   * error that names no file (eslint's file header), or the location just above an exception
   * (Python's innermost frame).
   */
  owner?: NumberedLine;
  /** True when the line's text was not in the previous run's output. */
  isNew: boolean;
}

/** A line too long to be held whole: its start, its end and its length. */
export interface LongLine {
  line: number;
  start: string;
  end: string;
  chars: number;
}

/** How this run compares with the previous run of the same command. */
export interface Compared {
  /** Lines new since the previous run (exact text not there, no number-only twin to pair with). */
  fresh: number;
  /** Salient lines of the previous run (by their number-masked form) that are not in this one. */
  gone: number;
  /** The text of up to GONE_NAMED of the gone lines (the previous run's best), cleaned. */
  goneTexts: string[];
  /** False when the previous run has too little in common to be a baseline. */
  related: boolean;
}

/** Everything the renderer needs, gathered in one pass. */
export interface Collected {
  bytes: number;
  /** Number of lines: newlines, plus one if the output does not end with a newline. */
  lines: number;
  /** The first bytes of the output (whole lines, or the start of a long one). */
  head: Buffer;
  /** True when `head` holds the whole output. */
  complete: boolean;
  /** The last lines of the output, complete and numbered (never overlapping a long line). */
  tail: NumberedLine[];
  /** Lines longer than the collector holds whole, by line number (the first and last few). */
  longLines: Map<number, LongLine>;
  binary: boolean;
  binaryType?: string;
  /** Salient lines (one per template) and new lines, in order of appearance. */
  candidates: Candidate[];
  /** Numbers of lines new since the previous run (head and tail lines included), when related. */
  newLines: Set<number>;
  /** Lines of PEM private-key blocks (BEGIN to END), never to be shown. */
  keyRanges: LineRange[];
  /** This run's lines, for comparing with a later run. */
  fingerprint: Fingerprint;
  /** Set when a previous run's fingerprint was given. */
  compared?: Compared;
}

export interface CollectorOptions {
  /** Lower-cased words from the command line that make a line worth showing. */
  hints?: readonly string[];
  /** How many bytes of the start and of the end are kept whole (default 64 KiB). */
  keepBytes?: number;
  /** The previous run's fingerprint, to find the lines that are new. */
  previous?: Fingerprint;
}

const MAX_GROUPS = 2000;
const MAX_NEW = 64;
const MAX_NEW_LINES = 4096;
const MAX_CACHE = 20000;
const MAX_KEY_RANGES = 64;
/** A key block with no END marker is taken to run this many lines at most. */
const KEY_MAX_LINES = 100;
/** Every line starting in the first this many bytes is hashed, to compare runs. */
const HASH_ALL_BYTES = 4 << 20;
const ATTACH_LOOKAHEAD = 12;
const OWNER_LOOKBACK = 120;
const LOCATION_LOOKBACK = 4;
const LOOKBACK_BYTES = 8192;
/** An exception's own line: `ValueError: ...`, `java.lang.IllegalStateException: ...`. */
const EXCEPTION_LINE = /^(?:[a-z_][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Failure)\b/;
const LONG_EDGE = 2048;
const MAX_LONG_KEPT = 8;
const NL = 10;
/**
 * Lines are decoded and scanned in pieces of about this many bytes: a string this small is made
 * in V8's young generation, where a 1 MB one costs page faults (100 MB: 70 ms against 500 ms).
 */
const SCAN_BYTES = 32 * 1024;
const NL_BYTE = Buffer.from('\n');
const NAMES_KEY = /private key/i;

/**
 * The last `capacity` bytes pushed, held in one buffer made once (fresh memory for each push
 * costs page faults: 5 ns a byte on this machine). Compacted when full, so each byte is copied
 * about twice at most.
 */
class LastBytes {
  private readonly buf: Buffer;
  private start = 0;
  private len = 0;

  constructor(readonly capacity: number) {
    this.buf = Buffer.allocUnsafe(2 * capacity);
  }

  push(part: Uint8Array): void {
    const cap = this.capacity;
    if (part.length >= cap) {
      this.buf.set(part.subarray(part.length - cap));
      this.start = 0;
      this.len = cap;
      return;
    }
    if (this.start + this.len + part.length > this.buf.length) {
      this.buf.copyWithin(0, this.start, this.start + this.len);
      this.start = 0;
    }
    this.buf.set(part, this.start + this.len);
    this.len += part.length;
    if (this.len > cap) {
      this.start += this.len - cap;
      this.len = cap;
    }
  }

  clear(): void {
    this.len = 0;
  }

  /** The bytes held (a view, valid until the next push). */
  get bytes(): Buffer {
    return this.buf.subarray(this.start, this.start + this.len);
  }
}

interface HugeLine {
  line: number;
  start: Buffer;
  end: LastBytes;
  bytes: number;
  chars: number;
}

/** What a number-masked line form scores, computed once per form. */
interface Scored {
  key: string;
  kind: LineKind;
  score: number;
  weak: boolean;
  /** The form's loose key (see looseKey in gone.ts). */
  loose: number;
}

export class Collector {
  private readonly keepBytes: number;
  private readonly hints: readonly string[];
  private readonly guard: RegExp;
  private readonly guardOne: RegExp;
  private readonly compare: Comparison | undefined;
  private readonly exactSketch = new Sketch(EXACT_K);
  private readonly digitsSketch = new Sketch(DIGITS_K);
  private readonly salient = new Set<number>();
  private readonly salientTexts = new SalientTexts();
  /** Loose keys of the salient forms (as many as `salient` holds). */
  private readonly looseSalient = new Set<number>();
  private readonly previous: Fingerprint | undefined;

  private bytes = 0;
  /** Complete lines scanned so far, and the bytes they span. */
  private newlines = 0;
  private scanned = 0;
  private lastByte = -1;
  private readonly sniffer = new BinarySniffer();
  private headParts: Buffer[] = [];
  private headLen = 0;
  private headDone = false;
  /** The last keepBytes + 1 bytes pushed (the tail and the byte before it). */
  private readonly last: LastBytes;
  private carry: Buffer | null = null;
  private huge: HugeLine | null = null;
  /** The bytes just before the next line to scan (for look-backs). */
  private readonly back = new LastBytes(LOOKBACK_BYTES);
  /** Where, in the lines being scanned, a long line ended: look-backs never reach past it. */
  private barrier = 0;
  private readonly longFirst: LongLine[] = [];
  private longLast: LongLine[] = [];
  private readonly cache = new Map<number, Scored>();
  private groups = new Map<string, Candidate>();
  private readonly fresh: Candidate[] = [];
  private readonly newLines: number[] = [];
  private pending: { candidate: Candidate; remaining: number } | null = null;
  private readonly keyRanges: LineRange[] = [];
  private keyOpen = false;

  constructor(options: CollectorOptions = {}) {
    this.keepBytes = Math.min(1 << 20, Math.max(4096, options.keepBytes ?? 65536));
    this.hints = options.hints ?? [];
    this.last = new LastBytes(this.keepBytes + 1);
    this.guard = buildGuard(this.hints);
    this.guardOne = new RegExp(this.guard.source, 'mi');
    this.compare = options.previous ? new Comparison(options.previous) : undefined;
    this.previous = options.previous;
  }

  /** Feeds the next bytes of the output. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    this.bytes += buf.length;
    this.sniffer.push(buf);
    this.keepHead(buf);
    this.last.push(buf);
    this.lastByte = buf[buf.length - 1] as number;
    let pos = 0;
    if (this.huge) {
      const nl = buf.indexOf(NL);
      if (nl === -1) {
        this.growHuge(buf);
        return;
      }
      this.growHuge(buf.subarray(0, nl));
      this.endHuge();
      pos = nl + 1;
    }
    if (this.carry) {
      // The line begun in an earlier chunk: completed here (small), or grown long.
      const nl = buf.indexOf(NL, pos);
      this.addCarry(buf.subarray(pos, nl === -1 ? buf.length : nl));
      if (nl === -1) return;
      if (this.huge) this.endHuge();
      else if (this.carry) {
        const line = Buffer.concat([this.carry, NL_BYTE]);
        this.carry = null;
        this.scanLines(line);
      }
      pos = nl + 1;
    }
    // Whole lines, in pieces of about SCAN_BYTES (one line at least).
    const last = buf.lastIndexOf(NL);
    while (pos <= last) {
      let end = last + 1;
      if (end - pos > SCAN_BYTES) {
        end = buf.lastIndexOf(NL, pos + SCAN_BYTES - 1) + 1;
        if (end <= pos) end = buf.indexOf(NL, pos + SCAN_BYTES) + 1;
      }
      this.scanLines(buf.subarray(pos, end));
      pos = end;
    }
    this.addCarry(buf.subarray(pos));
  }

  /** Ends a long line at its newline. */
  private endHuge(): void {
    this.scanned += (this.huge as HugeLine).bytes + 1;
    this.finishHuge();
    this.newlines++;
    this.back.clear();
  }

  /** Lines seen so far (complete ones). */
  get lineCount(): number {
    return this.newlines;
  }

  /** Ends the output and returns what was gathered. */
  end(): Collected {
    const lines = this.bytes > 0 && this.lastByte !== NL ? this.newlines + 1 : this.newlines;
    if (this.huge) this.finishHuge();
    else if (this.carry && this.carry.length > 0) {
      const carry = this.carry;
      this.carry = null;
      this.scanLines(carry);
    }
    const binary = this.sniffer.binary;
    const longLines = new Map<number, LongLine>();
    for (const l of [...this.longFirst, ...this.longLast]) longLines.set(l.line, l);
    const tail = this.tailLines(longLines, lines);
    this.resolveDeferred();
    const candidates = [...this.groups.values(), ...this.fresh].sort((a, b) => a.line - b.line);
    let newLines = new Set(this.newLines);
    let compared: Compared | undefined;
    if (this.compare) {
      const gone = (this.previous?.salient ?? []).filter((h) => !this.salient.has(h)).length;
      const named = goneTexts(this.previous?.texts, this.salient, this.looseSalient);
      compared = { fresh: this.compare.fresh, gone, goneTexts: named, related: this.compare.related };
      if (!compared.related) {
        newLines = new Set();
        for (const c of candidates) c.isNew = false;
      }
    }
    const result: Collected = {
      bytes: this.bytes,
      lines,
      head: Buffer.concat(this.headParts),
      complete: this.headLen === this.bytes,
      tail,
      longLines,
      binary,
      candidates: candidates.filter((c) => c.score > 0 || c.isNew),
      newLines,
      keyRanges: this.keyRanges.map((r) => ({ from: r.from, to: Math.min(r.to, r.from + KEY_MAX_LINES) })),
      fingerprint: this.fingerprint(),
    };
    if (compared) result.compared = compared;
    const type = this.sniffer.type;
    if (type) result.binaryType = type;
    return result;
  }

  private fingerprint(): Fingerprint {
    return {
      exact: this.exactSketch.entries().map(([h]) => h),
      exactMax: this.exactSketch.max,
      digits: this.digitsSketch.entries(),
      digitsMax: this.digitsSketch.max,
      salient: [...this.salient].sort((a, b) => a - b),
      texts: this.salientTexts.entries(),
    };
  }

  /** Keeps at least keepBytes of the start, extended to the end of the line it stops in (up to 2x). */
  private keepHead(buf: Buffer): void {
    if (this.headDone) return;
    let take = buf.length;
    if (this.headLen + take > this.keepBytes) {
      const need = Math.max(0, this.keepBytes - this.headLen);
      const nl = buf.indexOf(NL, need);
      const limit = 2 * this.keepBytes - this.headLen;
      take = nl === -1 ? Math.min(buf.length, limit) : Math.min(nl + 1, limit);
      if (nl !== -1 || take === limit) this.headDone = true;
    }
    this.headParts.push(copyOf(buf.subarray(0, take)));
    this.headLen += take;
  }

  /**
   * The last keepBytes bytes, from the first line that starts inside them, numbered back from
   * the last line. New lines among them that were not hashed while streaming are found here.
   */
  private tailLines(longLines: Map<number, LongLine>, lines: number): NumberedLine[] {
    const all = this.last.bytes;
    let buf = all;
    let offset = this.bytes - buf.length;
    if (buf.length > this.keepBytes) {
      offset += buf.length - this.keepBytes;
      buf = buf.subarray(buf.length - this.keepBytes);
    }
    if (offset > 0 && all[all.length - buf.length - 1] !== NL) {
      const nl = buf.indexOf(NL);
      if (nl === -1) return [];
      buf = buf.subarray(nl + 1);
      offset += nl + 1;
    }
    if (buf.length === 0) return [];
    const starts: number[] = [];
    for (let at = 0; at < buf.length; ) {
      starts.push(at);
      const nl = buf.indexOf(NL, at);
      at = nl === -1 ? buf.length : nl + 1;
    }
    const first = lines - starts.length + 1;
    const out: NumberedLine[] = [];
    const text = this.bytes > HASH_ALL_BYTES ? buf.toString('latin1') : '';
    starts.forEach((s, i) => {
      const line = first + i;
      let e = buf.indexOf(NL, s);
      if (e === -1) e = buf.length;
      if (offset + s >= HASH_ALL_BYTES) {
        this.guardOne.lastIndex = 0;
        // Lines the guard matched were hashed while streaming; the others are hashed now.
        if (!this.guardOne.test(text.slice(s, e))) this.hashPlain(buf, s, e, line);
      }
      if (!longLines.has(line)) out.push({ line, text: cleanLine(buf.toString('utf8', s, e)) });
    });
    return out;
  }

  private addCarry(part: Buffer): void {
    if (part.length === 0) return;
    const total = (this.carry?.length ?? 0) + part.length;
    if (total <= this.keepBytes) {
      this.carry = this.carry ? Buffer.concat([this.carry, part]) : copyOf(part);
      return;
    }
    // The line is too long to hold: keep its start, the rolling end, and count it.
    const all = this.carry ? Buffer.concat([this.carry, part]) : part;
    this.carry = null;
    this.startHuge(this.newlines + 1, all);
  }

  /** Begins a long line with its first bytes (its start kept, its end rolling). */
  private startHuge(line: number, first: Buffer): void {
    this.huge = {
      line,
      start: copyOf(first.subarray(0, LONG_EDGE * 4)),
      end: new LastBytes(LONG_EDGE * 4),
      bytes: 0,
      chars: 0,
    };
    this.growHuge(first);
  }

  private growHuge(part: Buffer): void {
    const h = this.huge as HugeLine;
    h.bytes += part.length;
    h.chars += countChars(part);
    h.end.push(part);
  }

  private finishHuge(): void {
    const h = this.huge as HugeLine;
    this.huge = null;
    const start = cleanLine(decodeStart(h.start, LONG_EDGE));
    const end = cleanLine(decodeEnd(h.end.bytes, LONG_EDGE));
    const long: LongLine = { line: h.line, start, end, chars: h.chars };
    if (this.longFirst.length < MAX_LONG_KEPT) this.longFirst.push(long);
    else {
      this.longLast.push(long);
      if (this.longLast.length > MAX_LONG_KEPT) this.longLast = this.longLast.slice(-MAX_LONG_KEPT);
    }
    const { score, kind, weak } = scoreLine(start, this.hints);
    if (score > 0) this.group(start, h.line, template(start, true), kind, score, weak === true, false);
  }

  /**
   * Scans whole lines: `work` ends with a newline, or is the final partial line. Lines the
   * guard does not match are only counted (and hashed in the first HASH_ALL_BYTES); a line longer
   * than keepBytes is taken as it would be had it come in many chunks (see `inlineHuge`).
   */
  private scanLines(work: Buffer): void {
    const text = work.toString('latin1');
    this.barrier = 0;
    const hashAllEnd = HASH_ALL_BYTES - this.scanned;
    const guard = this.guard;
    const len = work.length;
    let pos = 0;
    let line = this.newlines + 1;
    if (this.pending) [pos, line] = this.attach(work, text, pos, line);
    while (pos < len) {
      // The start of the next line the guard matches (a match never starts with a newline).
      guard.lastIndex = pos;
      const m = guard.exec(text);
      const from = m ? text.lastIndexOf('\n', m.index) + 1 : len;
      while (pos < from) {
        const e = lineEnd(text, pos);
        if (e - pos > this.keepBytes) this.inlineHuge(work, pos, e, line);
        else if (pos < hashAllEnd) this.hashPlain(work, pos, e, line);
        pos = e + 1;
        line++;
      }
      if (!m) break;
      const e = lineEnd(text, pos);
      if (e - pos > this.keepBytes) this.inlineHuge(work, pos, e, line);
      else {
        this.trackKey(work, text, pos, e, line);
        this.guarded(work, pos, e, line);
      }
      pos = e + 1;
      line++;
      if (this.pending) [pos, line] = this.attach(work, text, pos, line);
    }
    this.newlines = line - 1;
    this.scanned += len;
    if (this.barrier > 0) this.back.clear();
    this.back.push(work.subarray(this.barrier));
  }

  /**
   * A line longer than keepBytes inside one chunk, `work[s..e)`: kept as its start and end and
   * scored on its start, exactly as a long line that came in pieces (`addCarry`), and a barrier
   * for look-backs.
   */
  private inlineHuge(work: Buffer, s: number, e: number, line: number): void {
    this.startHuge(line, work.subarray(s, e));
    this.finishHuge();
    this.barrier = e + 1;
  }

  /** A line the guard did not match: hashed for the comparison, shown only when it is new. */
  private hashPlain(work: Buffer, s: number, e: number, line: number): void {
    const h = hashLine(work, s, e);
    this.exactSketch.add(h.exact);
    this.digitsSketch.add(h.digits);
    if (this.verdict(h.exact, h.digits, work, s, e, line) !== 'new') return;
    this.markNew(line);
    if (this.fresh.length >= MAX_NEW) return;
    const text = cleanLine(work.toString('utf8', s, e));
    if (text.trim() === '') return;
    this.fresh.push(candidate(text, line, template(text), 'plain', 0, false, true));
  }

  /** Whether a line is new since the previous run; a line known only by its form waits for the end. */
  private verdict(exact: number, digits: number, work: Buffer, s: number, e: number, line: number) {
    const v = this.compare?.check(exact, digits);
    if (v === 'maybe') this.compare?.defer(line, digits, work.subarray(s, e));
    return v;
  }

  /** The deferred lines found new at the end: marked, and shown as new candidates. */
  private resolveDeferred(): void {
    for (const d of this.compare?.resolve() ?? []) {
      this.markNew(d.line);
      const text = cleanLine(d.bytes.toString('utf8'));
      if (this.fresh.length >= MAX_NEW || text.trim() === '') continue;
      const sal = scoreLine(text, this.hints);
      this.fresh.push(
        candidate(text, d.line, template(text, true), sal.kind, sal.score, sal.weak === true, true),
      );
    }
  }

  private markNew(line: number): void {
    if (this.newLines.length < MAX_NEW_LINES) this.newLines.push(line);
  }

  /** A line the guard matched: hashed, scored once per number-masked form, grouped by template. */
  private guarded(work: Buffer, s: number, e: number, line: number): void {
    const h = hashLine(work, s, e);
    this.exactSketch.add(h.exact);
    this.digitsSketch.add(h.digits);
    const isNew = this.verdict(h.exact, h.digits, work, s, e, line) === 'new';
    if (isNew) this.markNew(line);
    let text: string | undefined;
    let scored = this.cache.get(h.digits);
    if (!scored) {
      text ??= cleanLine(work.toString('utf8', s, e));
      const sal = scoreLine(text, this.hints);
      scored = {
        key: template(text, true),
        kind: sal.kind,
        score: sal.score,
        weak: sal.weak === true,
        loose: looseKey(text),
      };
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(h.digits, scored);
    }
    if (scored.score > 0 && this.salient.size < SALIENT_MAX && !this.salient.has(h.digits)) {
      this.salient.add(h.digits);
      this.looseSalient.add(scored.loose);
      if (this.salientTexts.wants(scored.score)) {
        text ??= cleanLine(work.toString('utf8', s, e));
        this.salientTexts.add(h.digits, scored.score, line, text);
      }
    }
    if (scored.score <= 0 && !isNew) return;
    const own = isNew && this.fresh.length < MAX_NEW;
    const group = own ? undefined : this.groups.get(scored.key);
    if (group) {
      group.count++;
      group.lastLine = line;
      if (isNew) group.isNew = true;
      return;
    }
    text ??= cleanLine(work.toString('utf8', s, e));
    const c = candidate(text, line, scored.key, scored.kind, scored.score, scored.weak, isNew);
    this.addContext(c, work, s);
    if (own) this.fresh.push(c);
    else {
      this.groups.set(scored.key, c);
      if (this.groups.size > MAX_GROUPS * 2) this.prune();
    }
    if (c.kind === 'error') this.pending = { candidate: c, remaining: ATTACH_LOOKAHEAD };
  }

  private group(
    text: string,
    line: number,
    key: string,
    kind: LineKind,
    score: number,
    weak: boolean,
    isNew: boolean,
  ) {
    const group = this.groups.get(key);
    if (group) {
      group.count++;
      group.lastLine = line;
      return;
    }
    this.groups.set(key, candidate(text, line, key, kind, score, weak, isNew));
  }

  /**
   * Attaches location lines that follow an error; returns where scanning resumes. A long line is
   * passed over (not counted), as it is when it comes in pieces.
   */
  private attach(work: Buffer, text: string, pos: number, line: number): [number, number] {
    const p = this.pending as { candidate: Candidate; remaining: number };
    let at = pos;
    let n = line;
    while (p.remaining > 0 && at < work.length) {
      const end = lineEnd(text, at);
      if (end - at > this.keepBytes) {
        this.inlineHuge(work, at, end, n);
        at = end + 1;
        n++;
        continue;
      }
      this.guardOne.lastIndex = 0;
      const guarded = this.guardOne.test(text.slice(at, end));
      const lineText = cleanLine(work.toString('utf8', at, end));
      // Another salient line is scanned as itself.
      if (guarded && scoreLine(lineText, this.hints).score > 0) {
        p.remaining = 0;
        break;
      }
      p.remaining--;
      if (guarded) this.trackKey(work, text, at, end, n);
      if (guarded || at < HASH_ALL_BYTES - this.scanned) this.hashPlain(work, at, end, n);
      if (p.candidate.count === 1 && p.candidate.attached.length < 4 && belongs(lineText, p.candidate))
        p.candidate.attached.push({ line: n, text: lineText });
      at = end + 1;
      n++;
    }
    if (p.remaining === 0) this.pending = null;
    return [at, n];
  }

  /** The owner or the location line above a new candidate, read from the bytes before it. */
  private addContext(c: Candidate, work: Buffer, s: number): void {
    const indented = /^\s/.test(c.text);
    const wantsOwner = indented && !/[\\/]|\.\w+:\d/.test(c.text);
    const wantsLocation = !indented && EXCEPTION_LINE.test(c.text);
    if (!wantsOwner && !wantsLocation) return;
    const before =
      s >= LOOKBACK_BYTES || this.barrier > 0
        ? work.subarray(Math.max(this.barrier, s - LOOKBACK_BYTES), s)
        : Buffer.concat([
            this.back.bytes.subarray(Math.max(0, this.back.bytes.length - (LOOKBACK_BYTES - s))),
            work.subarray(0, s),
          ]);
    let end = before.length - 1; // the newline ending the line above
    for (let back = 1; end > 0 && back <= (wantsOwner ? OWNER_LOOKBACK : LOCATION_LOOKBACK); back++) {
      const start = before.lastIndexOf(NL, end - 1) + 1;
      if (start === 0 && before.length === LOOKBACK_BYTES) return; // the line may start further back
      const text = cleanLine(before.toString('utf8', start, end));
      if (wantsOwner && start < end && before[start] !== 32 && before[start] !== 9) {
        c.owner = { line: c.line - back, text };
        return;
      }
      if (wantsLocation && isLocation(text)) {
        c.owner = { line: c.line - back, text };
        return;
      }
      end = start - 1;
    }
  }

  /**
   * Follows PEM private-key blocks, so that no line of one is ever shown (see keyBlockStep). Every
   * line that names a private key is matched by the guard and read here, in order, whatever else
   * is made of it (a salient line, one attached to an error, or neither); long lines never are.
   */
  private trackKey(work: Buffer, text: string, s: number, e: number, line: number): void {
    if (!NAMES_KEY.test(text.slice(s, e))) return;
    const lineText = cleanLine(work.toString('utf8', s, e));
    if (!mayTouchKey(lineText, this.keyOpen)) return;
    const step = keyBlockStep(lineText, this.keyOpen);
    const open = this.keyRanges[this.keyRanges.length - 1];
    const ends = !step.continues || step.opens || !step.open;
    if (this.keyOpen && ends && open?.to === Number.POSITIVE_INFINITY)
      open.to = step.continues ? line : line - 1;
    if (step.opens && this.keyRanges.length < MAX_KEY_RANGES)
      this.keyRanges.push({ from: line, to: Number.POSITIVE_INFINITY });
    this.keyOpen = step.open;
  }

  /** Keeps the best MAX_GROUPS groups (deterministically: by score, then earliest). */
  private prune(): void {
    const kept = [...this.groups.entries()]
      .sort(([, a], [, b]) => b.score + (b.isNew ? 6 : 0) - (a.score + (a.isNew ? 6 : 0)) || a.line - b.line)
      .slice(0, MAX_GROUPS);
    this.groups = new Map(kept);
    if (this.pending && !kept.some(([, c]) => c === this.pending?.candidate)) this.pending = null;
  }
}

function candidate(
  text: string,
  line: number,
  key: string,
  kind: LineKind,
  score: number,
  weak: boolean,
  isNew: boolean,
): Candidate {
  const c: Candidate = {
    line,
    text,
    kind,
    score,
    template: key,
    count: 1,
    lastLine: line,
    attached: [],
    isNew,
  };
  if (weak) c.weak = true;
  return c;
}

/**
 * A line under an error that says where or why: a location (the first in the project's own
 * files), an assertion's expected and received values, a diff marker.
 */
function belongs(text: string, error: Candidate): boolean {
  if (isBlockDetail(text)) return true;
  if (!isLocation(text)) return false;
  return (
    error.attached.every((a) => !isOwnLocation(a.text)) &&
    (isOwnLocation(text) || error.attached.length === 0)
  );
}

/** The offset of the next newline at or after `from`, or the text's length. */
function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}

/** Counts UTF-8 characters (bytes that do not continue a sequence); ASCII is checked natively. */
function countChars(buf: Uint8Array): number {
  if (isAscii(buf)) return buf.length;
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (((buf[i] as number) & 0xc0) !== 0x80) n++;
  return n;
}

/** Decodes the first `chars` characters of a buffer, not splitting a UTF-8 sequence. */
function decodeStart(buf: Buffer, chars: number): string {
  return Array.from(buf.toString('utf8').replace(/\uFFFD$/, ''))
    .slice(0, chars)
    .join('');
}

/** Decodes the last `chars` characters, skipping continuation bytes at the cut. */
function decodeEnd(buf: Buffer, chars: number): string {
  let i = 0;
  while (i < buf.length && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return Array.from(buf.subarray(i).toString('utf8')).slice(-chars).join('');
}
