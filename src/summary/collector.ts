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
 * Work per line is bounded and mostly avoided: lines are scanned in pieces of about SCAN_BYTES
 * for the guard (the words that can make a line worth showing) in their raw bytes (see
 * guard-scan.ts), and only lines it matches (and, in the first HASH_ALL_BYTES, every line, to
 * compare runs) are hashed; a line is decoded, cleaned and scored only the first time its
 * number-masked form is seen, or when it is new since the previous run. Lines the guard skips
 * cost nothing of their own: the scan counts them.
 * Nothing pushed is kept by reference: the caller may reuse its buffer once `push` returns.
 *
 * Its parts: what it gathers (collected.ts), the guard scan (guard-scan.ts), long lines
 * (long-line.ts), the lines around a candidate (line-context.ts), private-key blocks
 * (key-ranges.ts), the run of identical lines at the head's end (line-run.ts), and the
 * fingerprint and the comparison with the previous run (run-memory.ts).
 */

import { continues } from './blocks.js';
import { cleanLine } from './clean.js';
import { type Candidate, type Collected, candidate, type LongLine, type NumberedLine } from './collected.js';
import { EndRun } from './end-run.js';
import type { Fingerprint } from './fingerprint.js';
import { looseKey } from './gone.js';
import { GuardScan } from './guard-scan.js';
import { HeadBytes } from './head-bytes.js';
import { CUT_BYTES, hasPrivate, KeyRanges, linesBefore, MarkPieces } from './key-ranges.js';
import { LastBytes } from './last-bytes.js';
import { addContext, belongs, echoAbove, LOOKBACK_BYTES, type Pending } from './line-context.js';
import { RunFollower } from './line-run.js';
import { AfterLong, HugeLine, LongLines, lineEnd, lineStarts, salientEdge } from './long-line.js';
import { bestGroups, Members } from './members.js';
import { BEFORE_BYTES, Neighbours } from './neighbours.js';
import { RunMemory } from './run-memory.js';
import { buildGuard, type LineKind, scoreLine, template } from './salience.js';
import { BinarySniffer, copyOf } from './sniff.js';
import { heldBytes, SCAN_BYTES, tailStart } from './tail-run.js';

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
/** Every line starting in the first this many bytes is hashed, to compare runs. */
const HASH_ALL_BYTES = 4 << 20;
const ATTACH_LOOKAHEAD = 12;
const NL = 10;
// Lines are decoded and scanned in pieces of about SCAN_BYTES: a string this small is made in
// V8's young generation, where a 1 MB one costs page faults (100 MB: 70 ms against 500 ms).
const NL_BYTE = Buffer.from('\n');
const NAMES_KEY = /private key|private-lines:/i;
/** Read for key blocks too, when a marker is cut over lines (see cutMarker). */
const KEY_MARKS = ['-----b', '-----e', 'begin'];

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
  private readonly scan: GuardScan;
  private readonly memory: RunMemory;

  private bytes = 0;
  /** Complete lines scanned so far, and the bytes they span. */
  private newlines = 0;
  private scanned = 0;
  private lastByte = -1;
  private readonly sniffer = new BinarySniffer();
  private readonly head: HeadBytes;
  /** The last bytes pushed: the tail, and the bytes before it a run may be counted back in. */
  private readonly last: LastBytes;
  private carry: Buffer | null = null;
  private huge: HugeLine | null = null;
  /** The bytes just before the next line to scan (for look-backs). */
  private readonly back = new LastBytes(LOOKBACK_BYTES);
  /** Where, in the lines being scanned, a long line ended: look-backs never reach past it. */
  private barrier = 0;
  private readonly long = new LongLines();
  private readonly afterLong = new AfterLong();
  private readonly cache = new Map<number, Scored>();
  private groups = new Map<string, Candidate>();
  private readonly fresh: Candidate[] = [];
  private readonly members = new Members();
  private readonly newLines: number[] = [];
  private pending: Pending | null = null;
  private readonly keys = new KeyRanges();
  private readonly marks = new MarkPieces();
  private readonly runs: RunFollower;
  private readonly endRun: EndRun;
  private readonly neighbours: Neighbours;

  constructor(options: CollectorOptions = {}) {
    this.keepBytes = Math.min(1 << 20, Math.max(4096, options.keepBytes ?? 65536));
    this.hints = options.hints ?? [];
    this.last = new LastBytes(heldBytes(this.keepBytes));
    this.endRun = new EndRun(this.keepBytes);
    this.scan = new GuardScan(buildGuard([...this.hints, ...KEY_MARKS]), this.keepBytes);
    this.memory = new RunMemory(options.previous);
    this.runs = new RunFollower(this.keepBytes);
    this.head = new HeadBytes(this.keepBytes);
    this.neighbours = new Neighbours(this.keepBytes);
  }

  /** Feeds the next bytes of the output. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    this.bytes += buf.length;
    this.sniffer.push(buf);
    this.head.push(buf);
    this.last.push(buf);
    this.lastByte = buf[buf.length - 1] as number;
    let pos = 0;
    if (this.huge) {
      const nl = buf.indexOf(NL);
      if (nl === -1) {
        this.huge.grow(buf);
        return;
      }
      this.huge.grow(buf.subarray(0, nl));
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
    this.runs.long(this.newlines + 1, this.scanned, this.headEnd());
    this.endRun.long(this.newlines + 1);
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
    if (this.huge) {
      this.runs.long(lines, this.bytes, this.headEnd());
      this.endRun.long(lines);
      this.finishHuge();
    } else if (this.carry && this.carry.length > 0) {
      const carry = this.carry;
      this.carry = null;
      this.scanLines(carry);
    }
    const binary = this.sniffer.binary;
    const longLines = this.long.byLine();
    const tail = this.tailLines(longLines, lines);
    this.resolveDeferred();
    const members = this.members.list(this.groups);
    const candidates = [...this.groups.values(), ...members, ...this.fresh].sort((a, b) => a.line - b.line);
    let newLines = new Set(this.newLines);
    const compared = this.memory.compared();
    if (compared && !compared.related) {
      newLines = new Set();
      for (const c of candidates) c.isNew = false;
    }
    const result: Collected = {
      bytes: this.bytes,
      lines,
      head: this.head.bytes(),
      complete: this.head.length === this.bytes,
      tail,
      longLines,
      binary,
      candidates: candidates.filter((c) => c.score > 0 || c.isNew),
      newLines,
      keyRanges: this.keys.list(),
      fingerprint: this.memory.fingerprint(),
    };
    if (compared) result.compared = compared;
    const run = this.runs.result(this.head.length);
    if (run) result.run = run;
    const endRuns = this.endRun.result(this.last.bytes, this.bytes, lines);
    if (endRuns.length > 0) result.endRuns = endRuns;
    const type = this.sniffer.type;
    if (type) result.binaryType = type;
    return result;
  }

  /** The head's length once it is done. */
  private headEnd = (): number | undefined => (this.head.done ? this.head.length : undefined);

  /**
   * The last keepBytes bytes, from the first line that starts inside them, numbered back from
   * the last line. New lines among them that were not hashed while streaming are found here.
   */
  private tailLines(longLines: Map<number, LongLine>, lines: number): NumberedLine[] {
    const all = this.last.bytes;
    const at = tailStart(all, this.bytes, this.keepBytes);
    if (at < 0) return [];
    const buf = all.subarray(at);
    const offset = this.bytes - all.length + at;
    const starts = lineStarts(buf);
    const first = lines - starts.length + 1;
    const out: NumberedLine[] = [];
    starts.forEach((s, i) => {
      const line = first + i;
      const e = lineEnd(buf, s);
      if (offset + s >= HASH_ALL_BYTES) {
        // Lines the guard matched were hashed while streaming; the others are hashed now.
        if (!this.scan.lineMatches(buf, s, e)) this.hashPlain(buf, s, e, line, false);
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
    this.huge = new HugeLine(this.newlines + 1, all);
  }

  private finishHuge(): void {
    const h = this.huge as HugeLine;
    this.huge = null;
    const long = h.finish();
    this.long.add(long);
    this.afterLong.start(long);
    const { text, score, kind, weak } = salientEdge(long, this.hints);
    if (score <= 0) return;
    const key = template(text, true);
    const group = this.groups.get(key);
    if (!group) this.groups.set(key, candidate(text, h.line, key, kind, score, weak === true, false));
    else {
      group.count++;
      group.lastLine = h.line;
    }
  }

  /**
   * Scans whole lines: `work` ends with a newline, or is the final partial line. Lines the
   * guard does not match are only counted (and hashed in the first HASH_ALL_BYTES); a line longer
   * than keepBytes is taken as it would be had it come in many chunks (see `inlineHuge`).
   */
  private scanLines(work: Buffer): void {
    if (this.runs.on) this.runs.piece(work, this.scanned, this.newlines + 1, this.headEnd());
    this.barrier = 0;
    const hashAllEnd = HASH_ALL_BYTES - this.scanned;
    const len = work.length;
    let pos = 0;
    let line = this.newlines + 1;
    if (this.neighbours.waiting) this.neighbours.next(work, pos, line);
    if (this.afterLong.waiting) this.afterLong.from(work, pos, line);
    if (this.pending) [pos, line] = this.attach(work, pos, line);
    while (pos < len) {
      const found = this.scan.next(work, pos, len);
      const at = found.at;
      const after = line + found.lines;
      // Lines before it do not match and are not long: only hashed in the first HASH_ALL_BYTES.
      while (pos < at && pos < hashAllEnd) {
        const e = lineEnd(work, pos);
        this.hashPlain(work, pos, e, line);
        pos = e + 1;
        line++;
        if (this.neighbours.waiting) this.neighbours.next(work, pos, line);
      }
      pos = at;
      line = after;
      if (at >= len) break;
      const e = lineEnd(work, pos);
      if (e - pos > this.keepBytes) this.inlineHuge(work, pos, e, line);
      else {
        this.trackKey(work, pos, e, line);
        this.guarded(work, pos, e, line);
      }
      pos = e + 1;
      line++;
      if (this.neighbours.waiting) this.neighbours.next(work, pos, line);
      if (this.pending) [pos, line] = this.attach(work, pos, line);
    }
    this.newlines = line - 1;
    this.endRun.piece(work, work[len - 1] === NL ? this.newlines : line, this.scanned + len);
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
    this.huge = new HugeLine(line, work.subarray(s, e));
    this.finishHuge();
    this.barrier = e + 1;
    this.afterLong.from(work, e + 1, line + 1);
  }

  /** A line the guard did not match: hashed for the comparison, shown only when it is new. */
  private hashPlain(work: Buffer, s: number, e: number, line: number, streaming = true): void {
    if (!this.memory.see(work, s, e, line, true).isNew) return;
    const text = this.memory.newText(work.subarray(s, e));
    if (text === undefined) return;
    this.markNew(line);
    if (this.fresh.length >= MAX_NEW) return;
    const c = candidate(text, line, template(text), 'plain', 0, false, true);
    // In the tail (at the end), the bytes before `work` are not those before the line.
    if (streaming) this.neighbours.saw(c, () => this.before(work, s, BEFORE_BYTES));
    this.fresh.push(c);
  }

  /** The deferred lines found new at the end: marked, and shown as new candidates. */
  private resolveDeferred(): void {
    for (const d of this.memory.resolve()) {
      const text = this.memory.newText(d.bytes);
      if (text === undefined) continue;
      this.markNew(d.line);
      if (this.fresh.length >= MAX_NEW) continue;
      const sal = scoreLine(text, this.hints);
      this.fresh.push(
        candidate(text, d.line, template(text, true), sal.kind, sal.score, sal.weak === true, true),
      );
    }
  }

  private markNew(line: number): void {
    if (this.newLines.length < MAX_NEW_LINES) this.newLines.push(line);
  }

  /** A line the guard matched: hashed, scored once per form, grouped by template (no closure: see keep). */
  private guarded(work: Buffer, s: number, e: number, line: number): void {
    const { digits, isNew } = this.memory.see(work, s, e, line);
    if (isNew) this.markNew(line);
    let text: string | undefined;
    let scored = this.cache.get(digits);
    if (!scored) {
      text = cleanLine(work.toString('utf8', s, e));
      const sal = scoreLine(text, this.hints);
      scored = {
        key: template(text, true),
        kind: sal.kind,
        score: sal.score,
        weak: sal.weak === true,
        loose: looseKey(text),
      };
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(digits, scored);
    }
    if (scored.kind === 'count' && this.memory.countLine(work.subarray(s, e), line, isNew))
      this.markNew(line);
    if (scored.score > 0) this.memory.salientLine(digits, scored.score, scored.loose, line, work, s, e);
    if (scored.score <= 0 && !isNew) return;
    const own = isNew && this.fresh.length < MAX_NEW;
    const group = own ? undefined : this.groups.get(scored.key);
    if (group) {
      group.count++;
      group.lastLine = line;
      if (isNew) group.isNew = true;
      if (!this.members.wants(group)) return;
    }
    text ??= cleanLine(work.toString('utf8', s, e));
    const c = candidate(text, line, scored.key, scored.kind, scored.score, scored.weak, isNew);
    if (group) this.members.add(c);
    this.keep(c, work, s, own, group !== undefined);
  }

  /** A new candidate or member, kept with the lines around it (apart: closures cost `guarded` a context). */
  private keep(c: Candidate, work: Buffer, s: number, own: boolean, member: boolean): void {
    addContext(c, () => this.before(work, s));
    this.neighbours.saw(c, () => this.before(work, s, BEFORE_BYTES));
    if (own) this.fresh.push(c);
    else if (!member && this.groups.set(c.template, c).size > MAX_GROUPS * 2) this.prune();
    if (c.kind === 'error') this.pending = { candidate: c, remaining: ATTACH_LOOKAHEAD };
  }

  /**
   * Attaches location lines that follow an error; returns where scanning resumes. A long line is
   * passed over (not counted), as it is when it comes in pieces.
   */
  private attach(work: Buffer, pos: number, line: number): [number, number] {
    const p = this.pending as Pending;
    let at = pos;
    let n = line;
    while (p.remaining > 0 && at < work.length) {
      const end = lineEnd(work, at);
      if (end - at > this.keepBytes) {
        this.inlineHuge(work, at, end, n);
        at = end + 1;
        n++;
        if (this.neighbours.waiting) this.neighbours.next(work, at, n);
        continue;
      }
      const guarded = this.scan.lineMatches(work, at, end);
      const lineText = cleanLine(work.toString('utf8', at, end));
      // Another salient line is scanned as itself.
      if (guarded && scoreLine(lineText, this.hints).score > 0) {
        p.remaining = 0;
        break;
      }
      p.remaining--;
      if (guarded) this.trackKey(work, at, end, n);
      if (guarded || at < HASH_ALL_BYTES - this.scanned) this.hashPlain(work, at, end, n);
      const c = p.candidate;
      const wrapped = n === c.line + 1 && continues(c.text, lineText);
      if (c.count <= 1 && c.attached.length < 4 && (wrapped || belongs(lineText, c, n)))
        c.attached.push({ line: n, text: lineText });
      else if (!p.echoed && c.count <= 1 && c.attached.length < 4)
        p.echoed = echoAbove(c, p.previous, lineText);
      p.previous = { line: n, text: lineText };
      at = end + 1;
      n++;
      if (this.neighbours.waiting) this.neighbours.next(work, at, n);
    }
    if (p.remaining === 0) this.pending = null;
    return [at, n];
  }

  /** The bytes before `work[s]`, up to LOOKBACK_BYTES, never past a long line. */
  private before(work: Buffer, s: number, max = LOOKBACK_BYTES): Buffer {
    if (s >= max || this.barrier > 0) return work.subarray(Math.max(this.barrier, s - max), s);
    const back = this.back.bytes;
    return Buffer.concat([back.subarray(Math.max(0, back.length - (max - s))), work.subarray(0, s)]);
  }

  /**
   * Follows PEM private-key blocks, so that no line of one is ever shown (see keyBlockStep). Every
   * line that names a private key is matched by the guard and read here, in order, whatever else
   * is made of it (a salient line, one attached to an error, or neither); long lines never are.
   */
  private trackKey(work: Buffer, s: number, e: number, line: number): void {
    const named = hasPrivate(work, s, e) && NAMES_KEY.test(work.toString('latin1', s, e));
    if (named || this.marks.has(work, s, e)) this.keys.read(work, s, e, line, this.keyBefore);
  }

  /** The lines before `work[s]` a key marker may be cut over (one function: no closure per line). */
  private readonly keyBefore = (work: Buffer, s: number) => linesBefore(this.before(work, s, CUT_BYTES));

  /** Keeps the best MAX_GROUPS groups (deterministically: by score, then earliest). */
  private prune(): void {
    this.groups = bestGroups(this.groups, MAX_GROUPS);
    this.members.prune(this.groups);
    if (this.pending && this.groups.get(this.pending.candidate.template) !== this.pending.candidate)
      this.pending = null;
  }
}
