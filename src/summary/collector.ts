/**
 * The streaming half of the summary: it sees every byte once, as it arrives, and keeps a bounded
 * amount of it (the start, the end, the salient lines of the middle), so that a 2 GB output is
 * summarised in constant memory. The result depends only on the bytes, never on how they were
 * split into chunks.
 */

import { keyBlockStep, mayTouchKey } from '../redact.js';
import type { LineRange } from '../shield.js';
import { cleanLine } from './clean.js';
import { countNewlines, type LineFinder, lineFinder } from './fingerprint-filter.js';
import { diffKey, fnv1a } from './hash.js';
import { dedupeKey, isLocation, type LineKind, scoreLine } from './salience.js';
import { BinarySniffer } from './sniff.js';

/** One line of output with its 1-based number in the stored file. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** A salient line of the output, with the near-identical lines that were folded into it. */
export interface Candidate extends NumberedLine {
  kind: LineKind;
  score: number;
  /** How many lines share this line's dedupe key. */
  count: number;
  /** Line number of the last line with the same key. */
  lastLine: number;
  /** Location lines (`--> src/x.rs:4:9`, `at main (x.c:59)`) that follow an error. */
  attached: NumberedLine[];
  /**
   * A line shown before it for context: the nearest preceding unindented line for an indented
   * error that names no file (eslint's file header), or the location just above an exception
   * (Python's innermost frame).
   */
  owner?: NumberedLine;
  /** True when the line's normalised form did not occur in the previous run's output. */
  isNew: boolean;
}

/** A line too long to be held whole: its start, its end and its length. */
export interface LongLine {
  line: number;
  start: string;
  end: string;
  chars: number;
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
  /** Salient lines, in order of appearance. */
  candidates: Candidate[];
  /** Lines of PEM private-key blocks (BEGIN to END), never to be shown. */
  keyRanges: LineRange[];
  /** Distinct normalised salient lines, for comparing with a later run. */
  fingerprint: number[];
  /**
   * When a previous fingerprint was given and the runs are comparable: how many of its salient
   * lines are gone now.
   */
  gone?: number;
}

export interface CollectorOptions {
  /** Lower-cased words from the command line that make a line worth showing. */
  hints?: readonly string[];
  /** How many bytes of the start and of the end are kept whole (default 64 KiB). */
  keepBytes?: number;
  /** The previous run's fingerprint, to mark lines that are new. */
  previous?: readonly number[];
}

const MAX_GROUPS = 2000;
const MAX_KEY_RANGES = 64;
/** A key block with no END marker is taken to run this many lines at most. */
const KEY_MAX_LINES = 100;
/** With nothing in common, more new salient lines than this mean the runs are not comparable. */
const UNRELATED_NEW = 10;
const MAX_FINGERPRINT = 20000;
const ATTACH_LOOKAHEAD = 6;
const OWNER_LOOKBACK = 120;
const LOCATION_LOOKBACK = 4;
/** An exception's own line: `ValueError: ...`, `java.lang.IllegalStateException: ...`. */
const EXCEPTION_LINE = /^(?:[a-z_][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Failure)\b/;
const LONG_EDGE = 2048;
const MAX_LONG_KEPT = 8;
const NL = 10;

interface HugeLine {
  line: number;
  start: Buffer;
  end: Buffer;
  bytes: number;
  chars: number;
}

interface PendingAttach {
  candidate: Candidate;
  remaining: number;
}

export class Collector {
  private readonly keepBytes: number;
  private readonly hints: readonly string[];
  private finder: LineFinder | null = null;
  private readonly previous: Set<number> | undefined;

  private bytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private readonly sniffer = new BinarySniffer();
  private headParts: Buffer[] = [];
  private headLen = 0;
  private headDone = false;
  private ring: Buffer[] = [];
  private ringLen = 0;
  /** Newlines before the first byte of the ring, and the byte just before it. */
  private ringNewlinesBefore = 0;
  private ringPrevByte = NL;
  private ringNewlines: number[] = [];
  private carry: Buffer | null = null;
  private huge: HugeLine | null = null;
  private readonly longFirst: LongLine[] = [];
  private longLast: LongLine[] = [];
  private readonly groups = new Map<string, Candidate>();
  private readonly seen = new Set<number>();
  private pending: PendingAttach | null = null;
  private recent: NumberedLine[] = [];
  private readonly keyRanges: LineRange[] = [];
  private keyOpen = false;
  private lastUnindented: NumberedLine | null = null;

  constructor(options: CollectorOptions = {}) {
    this.keepBytes = Math.max(4096, options.keepBytes ?? 65536);
    this.hints = options.hints ?? [];
    this.previous = options.previous ? new Set(options.previous) : undefined;
  }

  /** Feeds the next bytes of the output. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    this.bytes += buf.length;
    this.sniffer.push(buf);
    this.keepHead(buf);
    const newlines = countNewlines(buf);
    this.keepTail(buf, newlines);
    this.scan(buf, newlines);
    this.newlines += newlines;
    this.lastByte = buf[buf.length - 1] as number;
  }

  /** Lines seen so far (complete ones). */
  get lineCount(): number {
    return this.newlines;
  }

  /** Ends the output and returns what was gathered. */
  end(): Collected {
    this.flushLine();
    const binary = this.sniffer.binary;
    const candidates = [...this.groups.values()].sort((a, b) => a.line - b.line);
    const fingerprint = [...this.seen].sort((a, b) => a - b);
    const longLines = new Map<number, LongLine>();
    for (const l of [...this.longFirst, ...this.longLast]) longLines.set(l.line, l);
    const lines = this.newlines + (this.bytes > 0 && this.lastByte !== NL ? 1 : 0);
    const result: Collected = {
      bytes: this.bytes,
      lines,
      head: Buffer.concat(this.headParts),
      complete: this.headLen === this.bytes,
      tail: this.tailLines(longLines),
      longLines,
      binary,
      candidates,
      keyRanges: this.keyRanges.map((r) => ({ from: r.from, to: Math.min(r.to, r.from + KEY_MAX_LINES) })),
      fingerprint,
    };
    const type = this.sniffer.type;
    if (type) result.binaryType = type;
    if (this.previous) {
      let gone = 0;
      for (const h of this.previous) if (!this.seen.has(h)) gone++;
      const common = this.previous.size - gone;
      if (common > 0 || this.seen.size <= UNRELATED_NEW) result.gone = gone;
      // Nothing in common and much that is new: the previous run is no baseline (it failed to
      // start, say), and marking every line as new would only be noise.
      else for (const c of candidates) c.isNew = false;
    }
    return result;
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
    this.headParts.push(Buffer.from(buf.subarray(0, take)));
    this.headLen += take;
  }

  private keepTail(buf: Buffer, newlines: number): void {
    this.ring.push(buf);
    this.ringNewlines.push(newlines);
    this.ringLen += buf.length;
    while (this.ring.length > 1 && this.ringLen - (this.ring[0] as Buffer).length >= this.keepBytes) {
      const dropped = this.ring.shift() as Buffer;
      this.ringLen -= dropped.length;
      this.ringNewlinesBefore += this.ringNewlines.shift() as number;
      this.ringPrevByte = dropped[dropped.length - 1] as number;
    }
  }

  private tailLines(longLines: Map<number, LongLine>): NumberedLine[] {
    let buf = Buffer.concat(this.ring);
    let line = this.ringNewlinesBefore + 1;
    if (this.ringPrevByte !== NL) {
      const nl = buf.indexOf(NL);
      if (nl === -1) return [];
      buf = buf.subarray(nl + 1);
      line++;
    }
    if (buf.length === 0) return [];
    const text = buf.toString('utf8');
    const parts = text.split('\n');
    if (parts[parts.length - 1] === '') parts.pop();
    const out: NumberedLine[] = [];
    for (const part of parts) {
      if (!longLines.has(line)) out.push({ line, text: cleanLine(part) });
      line++;
    }
    return out;
  }

  /**
   * Splits the chunk into complete lines and scans them; a partial line waits in `carry`. The
   * chunk is scanned in place: only a line carried over from the previous chunk is copied.
   */
  private scan(buf: Buffer, count: number): void {
    const carryLine = this.newlines + count + 1;
    if (count === 0 && this.huge) {
      this.growHuge(buf);
      return;
    }
    if (count === 0) {
      this.addCarry(buf, carryLine);
      return;
    }
    const first = buf.indexOf(NL);
    const last = buf.lastIndexOf(NL);
    let start = 0;
    let line = this.newlines + 1;
    if (this.huge) {
      this.growHuge(buf.subarray(0, first));
      this.finishHuge();
      start = first + 1;
      line++;
    } else if (this.carry && this.carry.length > 0) {
      const joined = Buffer.concat([this.carry, buf.subarray(0, first + 1)]);
      this.carry = null;
      this.scanLines(joined, line);
      start = first + 1;
      line++;
    }
    if (start <= last) this.scanLines(buf.subarray(start, last + 1), line);
    this.addCarry(buf.subarray(last + 1), carryLine);
  }

  private addCarry(part: Buffer, line: number): void {
    if (part.length === 0) return;
    const total = (this.carry?.length ?? 0) + part.length;
    if (total <= this.keepBytes) {
      this.carry = this.carry ? Buffer.concat([this.carry, part]) : Buffer.from(part);
      return;
    }
    // The line is too long to hold: keep its start, the rolling end, and count it.
    const all = this.carry ? Buffer.concat([this.carry, part]) : part;
    this.carry = null;
    this.huge = {
      line,
      start: Buffer.from(all.subarray(0, LONG_EDGE * 4)),
      end: Buffer.alloc(0),
      bytes: 0,
      chars: 0,
    };
    this.growHuge(all);
  }

  private growHuge(part: Buffer): void {
    const h = this.huge as HugeLine;
    h.bytes += part.length;
    h.chars += countChars(part);
    const keep = LONG_EDGE * 4;
    h.end =
      part.length >= keep
        ? Buffer.from(part.subarray(part.length - keep))
        : Buffer.concat([h.end, part]).subarray(-keep);
  }

  private finishHuge(): void {
    const h = this.huge as HugeLine;
    this.huge = null;
    const start = cleanLine(decodeStart(h.start, LONG_EDGE));
    const end = cleanLine(decodeEnd(h.end, LONG_EDGE));
    const long: LongLine = { line: h.line, start, end, chars: h.chars };
    if (this.longFirst.length < MAX_LONG_KEPT) this.longFirst.push(long);
    else {
      this.longLast.push(long);
      if (this.longLast.length > MAX_LONG_KEPT) this.longLast = this.longLast.slice(-MAX_LONG_KEPT);
    }
    this.consider(start, h.line);
  }

  private flushLine(): void {
    if (this.huge) {
      this.finishHuge();
      return;
    }
    if (this.carry && this.carry.length > 0) {
      const carry = this.carry;
      this.carry = null;
      this.scanLines(carry, this.newlines + 1);
    }
  }

  /**
   * Scans whole lines (`work` ends with a newline, or is the final partial line). `index` gives
   * the offsets of its newlines when the caller has them already.
   */
  private scanLines(work: Buffer, firstLine: number): void {
    this.finder ??= lineFinder(this.hints);
    const finder = this.finder;
    finder.reset(work);
    const lineAt = (pos: number) => firstLine + finder.newlinesBefore(pos);
    let pos = 0;
    if (this.pending) pos = this.attachFrom(work, 0, firstLine);
    for (let lineStart = finder.next(pos); lineStart !== -1; lineStart = finder.next(pos)) {
      let lineEnd = work.indexOf(NL, lineStart);
      if (lineEnd === -1) lineEnd = work.length;
      const line = lineAt(lineStart);
      const text = cleanLine(work.toString('utf8', lineStart, lineEnd));
      this.trackKey(text, line);
      const candidate = this.consider(text, line, work, lineStart, firstLine);
      let next = lineEnd + 1;
      if (candidate && candidate.kind === 'error' && next < work.length) {
        this.pending = { candidate, remaining: ATTACH_LOOKAHEAD };
        next = this.attachFrom(work, next, line + 1);
      }
      pos = next;
      if (next >= work.length) break;
    }
    this.trackUnindented(work, lineAt);
    this.keepRecent(work, lineAt);
  }

  /** Attaches location lines that follow an error; returns where scanning should resume. */
  private attachFrom(work: Buffer, pos: number, line: number): number {
    const p = this.pending as PendingAttach;
    let at = pos;
    let n = line;
    while (p.remaining > 0 && at < work.length) {
      let end = work.indexOf(NL, at);
      if (end === -1) end = work.length;
      const text = cleanLine(work.toString('utf8', at, end));
      this.trackKey(text, n);
      p.remaining--;
      if (scoreLine(text, this.hints).score > 0) {
        // Another salient line starts its own candidate: stop attaching, let the scan see it.
        p.remaining = 0;
        break;
      }
      if (isLocation(text) && p.candidate.count === 1 && p.candidate.attached.length < 2) {
        p.candidate.attached.push({ line: n, text });
      }
      at = end + 1;
      n++;
    }
    if (p.remaining === 0) this.pending = null;
    return at;
  }

  private trackUnindented(work: Buffer, lineAt: (pos: number) => number): void {
    let end = endOfText(work);
    let lines = 0;
    while (end > 0 && lines < OWNER_LOOKBACK) {
      const start = lastNewline(work, end - 1) + 1;
      const c = work[start];
      if (start < end && c !== 32 && c !== 9) {
        const line = lineAt(start);
        this.lastUnindented = { line, text: cleanLine(work.toString('utf8', start, end)) };
        return;
      }
      if (start === 0) return;
      end = start - 1;
      lines++;
    }
  }

  private ownerOf(
    work: Buffer,
    lineStart: number,
    line: number,
    firstLine: number,
  ): NumberedLine | undefined {
    let end = lineStart - 1;
    let back = 0;
    while (end >= 0 && back < OWNER_LOOKBACK) {
      const start = lastNewline(work, end - 1) + 1;
      const c = work[start];
      back++;
      if (start < end && c !== 32 && c !== 9) {
        return { line: line - back, text: cleanLine(work.toString('utf8', start, end)) };
      }
      if (start === 0) break;
      end = start - 1;
    }
    const prev = this.lastUnindented;
    if (prev && line - prev.line <= OWNER_LOOKBACK && prev.line < firstLine) return prev;
    return undefined;
  }

  /** The nearest location line among the few just above `lineStart`, reaching into earlier chunks. */
  private locationBefore(work: Buffer, lineStart: number, line: number): NumberedLine | undefined {
    let end = lineStart - 1;
    let back = 0;
    while (end >= 0 && back < LOCATION_LOOKBACK) {
      const start = lastNewline(work, end - 1) + 1;
      back++;
      const text = cleanLine(work.toString('utf8', start, end));
      if (isLocation(text)) return { line: line - back, text };
      if (start === 0) break;
      end = start - 1;
    }
    if (end < 0 || back < LOCATION_LOOKBACK) {
      for (let i = this.recent.length - 1; i >= 0 && back < LOCATION_LOOKBACK; i--) {
        const r = this.recent[i] as NumberedLine;
        back = line - r.line;
        if (back <= LOCATION_LOOKBACK && isLocation(r.text)) return r;
      }
    }
    return undefined;
  }

  /** Follows PEM private-key blocks, so that no line of one is ever shown (see keyBlockStep). */
  private trackKey(text: string, line: number): void {
    if (!mayTouchKey(text, this.keyOpen)) return;
    const step = keyBlockStep(text, this.keyOpen);
    const open = this.keyRanges[this.keyRanges.length - 1];
    const ends = !step.continues || step.opens || !step.open;
    if (this.keyOpen && ends && open?.to === Number.POSITIVE_INFINITY)
      open.to = step.continues ? line : line - 1;
    if (step.opens && this.keyRanges.length < MAX_KEY_RANGES)
      this.keyRanges.push({ from: line, to: Number.POSITIVE_INFINITY });
    this.keyOpen = step.open;
  }

  /** Keeps the last few lines of a scanned span, for look-backs from the next one. */
  private keepRecent(work: Buffer, lineAt: (pos: number) => number): void {
    const lines: NumberedLine[] = [];
    let end = endOfText(work);
    while (end >= 0 && lines.length < LOCATION_LOOKBACK) {
      const start = lastNewline(work, end - 1) + 1;
      lines.unshift({ line: lineAt(start), text: cleanLine(work.toString('utf8', start, end)) });
      if (start === 0) break;
      end = start - 1;
    }
    this.recent = [...this.recent, ...lines].slice(-LOCATION_LOOKBACK);
  }

  /** Scores a line and folds it into its group; returns the group when the line is salient. */
  private consider(
    text: string,
    line: number,
    work?: Buffer,
    lineStart = 0,
    firstLine = line,
  ): Candidate | undefined {
    const { kind, score } = scoreLine(text, this.hints);
    if (score <= 0) return undefined;
    const hash = fnv1a(diffKey(text));
    const isNew = this.previous !== undefined && !this.previous.has(hash);
    if (this.seen.size < MAX_FINGERPRINT) this.seen.add(hash);
    const key = dedupeKey(text);
    const group = this.groups.get(key);
    if (group) {
      group.count++;
      group.lastLine = line;
      if (isNew && !group.isNew) group.isNew = true;
      return group;
    }
    const candidate: Candidate = { line, text, kind, score, count: 1, lastLine: line, attached: [], isNew };
    if (work) {
      const owner = /^\s/.test(text)
        ? /[\\/]|\.\w+:\d/.test(text)
          ? undefined
          : this.ownerOf(work, lineStart, line, firstLine)
        : EXCEPTION_LINE.test(text)
          ? this.locationBefore(work, lineStart, line)
          : undefined;
      if (owner) candidate.owner = owner;
    }
    this.groups.set(key, candidate);
    if (this.groups.size > MAX_GROUPS * 2) this.prune();
    return candidate;
  }

  /** Keeps the best MAX_GROUPS groups (deterministically: by score, then earliest). */
  private prune(): void {
    const kept = [...this.groups.entries()]
      .sort(([, a], [, b]) => b.score + (b.isNew ? 6 : 0) - (a.score + (a.isNew ? 6 : 0)) || a.line - b.line)
      .slice(0, MAX_GROUPS);
    this.groups.clear();
    for (const [k, v] of kept) this.groups.set(k, v);
    if (this.pending && !this.groups.has(dedupeKey(this.pending.candidate.text))) this.pending = null;
  }
}

/** Like `String#lastIndexOf('\n', from)` on the latin1 text: a negative `from` looks at 0 only. */
function lastNewline(buf: Buffer, from: number): number {
  return buf.lastIndexOf(NL, Math.max(0, from));
}

/** The span's length without its final newline. */
function endOfText(buf: Buffer): number {
  return buf.length > 0 && buf[buf.length - 1] === NL ? buf.length - 1 : buf.length;
}

/** Counts UTF-8 characters (bytes that do not continue a sequence). */
function countChars(buf: Uint8Array): number {
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
