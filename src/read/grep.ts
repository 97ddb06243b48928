/**
 * `read --lines grep:`: every line of a stored output whose cleaned text (as `read` shows it:
 * colour codes removed, the final state of `\r` rewrites) matches, numbered, with context, in
 * one streaming pass in constant memory.
 *
 * The hot loop never looks at a line that cannot match. When the pattern has a required literal
 * (`TS2\d{3}` → `TS2`), a native byte search finds the candidate lines and only those are decoded
 * and tested. Otherwise a block's text is searched at once and the lines the hits fall in are
 * tested alone. Line numbers come from counting newlines between hits (see bytes.ts).
 * A block where cleaning could make the literal appear (an escape sequence inside a word, a
 * control shown as `^E` before `RROR`) is searched in cleaned form instead, so nothing `read`
 * shows is missed; patterns with lookaround are tested line by line.
 */
import { visible } from '../controls.js';
import type { Around } from '../shield.js';
import { cleanLine } from '../summary/clean.js';
import { lineAfter, lineBefore } from '../summary/neighbours.js';
import { countNewlines, lowerCopy, mayHideLiteral, needsCleaning } from './bytes.js';
import { fileLineAfter, fileLineBefore } from './file-lines.js';
import { type Block, BlockReader, lastLineOf, lineEnd, type ReaderOptions } from './line-reader.js';
import type { GrepRequest } from './parse-line-spec.js';
import { hasLookaround, requiredLiteral } from './required-literal.js';

/** How a pattern is searched for. */
export interface GrepPlan {
  /** Tests one cleaned line. */
  line: RegExp;
  /** Searches a block's text (flags g and m added); null when lines must be tested one by one. */
  block: RegExp | null;
  /** Bytes every matching line contains; null when there is no literal worth a byte search. */
  literal: Buffer | null;
  /** Look for `literal` in an ASCII-lower-cased copy of the text (the `i` flag). */
  foldCase: boolean;
  /** The pattern is nothing but its literal: in a tidy line, finding the literal is a match. */
  plain: boolean;
  /**
   * What is shown of a cleaned line (credentials masked), given its number when known: a line
   * matches only when what is shown matches, so a masked secret cannot be found piece by piece.
   */
  mask?: (line: number | undefined, text: string, around?: Around) => string;
}

/** Literals shorter than this find too many candidates to pay for themselves. */
const MIN_LITERAL_BYTES = 3;

export function planGrep(request: GrepRequest): GrepPlan {
  const { source, flags } = request.regex;
  const foldCase = flags.includes('i');
  if (hasLookaround(source))
    return { line: request.regex, block: null, literal: null, foldCase, plain: false };
  const text = requiredLiteral(source, flags);
  const literal = Buffer.from(text, 'utf8');
  return {
    line: request.regex,
    block: new RegExp(source, `${flags}gm`),
    literal: literal.length >= MIN_LITERAL_BYTES ? literal : null,
    foldCase,
    plain: !/[\\^$.*+?()[\]{}|]/.test(source) && text === (foldCase ? source.toLowerCase() : source),
  };
}

/** Receives the lines to show, in order: returns false once nothing more fits. */
/** `at`: the byte offset of the line in the file, when it is known (a line of the current block). */
export type ShowLine = (
  line: number,
  buf: Buffer,
  start: number,
  end: number,
  match: boolean,
  at?: number,
) => boolean;

export interface GrepResult {
  /** Matching lines in the whole file. */
  matches: number;
  /** Lines in the file. */
  lines: number;
  /** The first matching line that `show` did not take, if any. */
  firstUnshown?: number;
}

// ANSI escape sequences as `cleanLine` removes them, but never across a newline, so that a
// whole block's text can be stripped at once with the same result as each line alone.
const ANSI_IN_LINES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\|(?=\n)|$)|\x1b[PX^_][^\x1b\n]*(?:\x1b\\|(?=\n)|$)|\x1b[ -/]*[0-~]/g;
// The characters `cleanLine` makes visible, but for `\r` (and `\n`, which ends lines here).
const UNSAFE_BUT_CR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** A carried-over context line from the previous block. */
interface Held {
  line: number;
  bytes: Buffer;
}

/** Longest context line carried from one block to the next (the rest would be cut anyway). */
const HELD_BYTES = 1 << 16;

/** Scans a whole file; `show` gets matches and `context` lines around them while they fit. */
export function grepFile(
  fd: number,
  plan: GrepPlan,
  context: number,
  show: ShowLine,
  reading: ReaderOptions = {},
): GrepResult {
  const scan = new GrepScan(fd, plan, context, show);
  const reader = new BlockReader(fd, reading);
  let lines = 0;
  for (let block = reader.next(); block; block = reader.next()) {
    scan.block(block);
    lines = lastLineOf(block);
  }
  return {
    matches: scan.matchCount,
    lines,
    ...(scan.firstUnshown !== undefined ? { firstUnshown: scan.firstUnshown } : {}),
  };
}

class GrepScan {
  matchCount = 0;
  firstUnshown: number | undefined;
  private full = false;
  /** The last line given to `show`. */
  private lastShown = 0;
  /** A line longer than a block matched at the end of the last block: its rest is not another match. */
  private matchedAtCut = false;
  private skipFirst = false;
  /** After-context: show lines up to this one. */
  private afterUntil = 0;
  /** The last `context` lines of the previous block. */
  private held: Held[] = [];

  // The current block, and a cursor: `pos` is the start of line `line`.
  private buf: Buffer = Buffer.alloc(0);
  private offset = 0;
  private cut = false;
  private first = 1;
  private pos = 0;
  private line = 1;
  /** Byte position of line `lastShown + 1` when it is in this block, else -1. */
  private nextPos = -1;
  /** The end of the line last tested in this block (-1: none) and its text. */
  private testedEnd = -1;
  private testedText = '';

  constructor(
    private readonly fd: number,
    private readonly plan: GrepPlan,
    private readonly context: number,
    private readonly show: ShowLine,
  ) {}

  block(block: Block): void {
    this.buf = block.buf;
    this.first = block.line;
    this.offset = block.offset;
    this.pos = 0;
    this.line = block.line;
    this.nextPos = this.lastShown === block.line - 1 ? 0 : -1;
    this.cut = block.cut;
    this.testedEnd = -1;
    // A block that goes on with a line already matched (in any earlier piece of it) skips it.
    this.skipFirst = block.continued && (this.matchedAtCut || this.skipFirst);
    this.matchedAtCut = false;
    const { literal, foldCase } = this.plan;
    if (!this.plan.block) this.eachLine();
    else if (literal && !mayHideLiteral(this.buf, literal, foldCase)) this.byLiteral(literal);
    else this.byText(this.plan.block, needsCleaning(this.buf));
    if (this.full) return;
    this.showAfter(lastLineOf(block), this.buf.length);
    if (this.context > 0) this.holdTail(block);
  }

  /** Candidates from a byte search for the required literal. */
  private byLiteral(literal: Buffer): void {
    const buf = this.buf;
    const haystack = this.plan.foldCase ? lowerCopy(buf) : buf;
    for (let at = 0; ; ) {
      const hit = haystack.indexOf(literal, at);
      if (hit === -1) return;
      const start = hit === 0 ? 0 : buf.lastIndexOf(10, hit - 1) + 1;
      const end = lineEnd(buf, hit);
      this.candidate(start, end);
      at = end + 1;
    }
  }

  /**
   * Candidates from a search of the block's text: the lines that hits start in. An untidy block
   * is searched as `cleanLine` would leave each line, but with `\r` kept (the final state of a
   * line is one of its `\r` pieces, and `^`, `$` and `.` treat `\r` as a line end).
   */
  private byText(re: RegExp, untidy: boolean): void {
    let text = this.buf.toString('utf8');
    // One UTF-16 unit per byte: positions in the text are positions in the bytes.
    const sameOffsets = !untidy && text.length === this.buf.length;
    if (untidy) text = text.replace(ANSI_IN_LINES, '').replace(UNSAFE_BUT_CR, visible);
    let textPos = 0;
    let textLine = this.first;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m.index === text.length && text.endsWith('\n')) break; // no line after the last newline
      const start = m.index === 0 ? 0 : text.lastIndexOf('\n', m.index - 1) + 1;
      let end = text.indexOf('\n', m.index);
      if (end === -1) end = text.length;
      if (sameOffsets) this.candidate(start, end);
      else {
        for (let i = text.indexOf('\n', textPos); i !== -1 && i < start; i = text.indexOf('\n', i + 1))
          textLine++;
        textPos = start;
        this.seekLine(textLine);
        this.candidate(this.pos, lineEnd(this.buf, this.pos));
      }
      re.lastIndex = end + 1;
      if (end >= text.length) break;
    }
  }

  /** Every line tested alone (patterns with lookaround). */
  private eachLine(): void {
    const buf = this.buf;
    for (let start = 0; start < buf.length; ) {
      const end = lineEnd(buf, start);
      this.candidate(start, end);
      start = end + 1;
    }
  }

  private seekLine(target: number): void {
    while (this.line < target) {
      this.pos = lineEnd(this.buf, this.pos) + 1;
      this.line++;
    }
  }

  /** Tests the line at `[start, end)` and shows it, with its context, if it matches. */
  private candidate(start: number, end: number): void {
    if (start === 0 && this.skipFirst) return; // the rest of a matching line handed out in pieces
    if (this.full && this.firstUnshown !== undefined) {
      // Nothing more will be shown: count the matching lines without numbering them.
      if (this.matches(start, end, undefined)) this.counted(end);
      return;
    }
    this.line += countNewlines(this.buf, this.pos, start);
    this.pos = start;
    const line = this.line;
    if (!this.matches(start, end, line)) return;
    this.counted(end);
    if (this.full) {
      this.firstUnshown = line;
      return;
    }
    this.showAfter(line - 1, start);
    if (!this.showBefore(line, start) || !this.emit(line, start, end, true)) {
      this.firstUnshown = line;
      return;
    }
    this.afterUntil = line + this.context;
  }

  private matches(start: number, end: number, line: number | undefined): boolean {
    const { mask } = this.plan;
    if (mask) {
      // With its neighbours, where in this block: a secret may be cut over two lines (the line
      // tested just before is not decoded again).
      const buf = this.buf;
      const [testedEnd, testedText] = [this.testedEnd, this.testedText];
      // At the block's edges, they are read from the file.
      const [fd, at] = [this.fd, this.offset];
      const before = () =>
        testedEnd === start - 1 ? testedText : (lineBefore(buf, start) ?? fileLineBefore(fd, at + start));
      const after = () => lineAfter(buf, end) ?? fileLineAfter(fd, at + end);
      const text = cleanLine(buf.toString('utf8', start, end));
      [this.testedEnd, this.testedText] = [end, text];
      return this.plan.line.test(mask(line, text, { before, after }));
    }
    if (this.plan.plain && !needsCleaning(this.buf, start, end)) return true;
    return this.plan.line.test(cleanLine(this.buf.toString('utf8', start, end)));
  }

  private counted(end: number): void {
    this.matchCount++;
    if (this.cut && end === this.buf.length) this.matchedAtCut = true;
  }

  /** Shows pending after-context up to line `until`, not past byte `limit`. */
  private showAfter(until: number, limit: number): void {
    let pos = this.nextPos;
    if (pos === -1) return;
    const last = Math.min(this.afterUntil, until);
    while (this.lastShown < last && pos < limit) {
      const end = lineEnd(this.buf, pos);
      if (!this.emit(this.lastShown + 1, pos, end, false)) return;
      pos = end + 1;
    }
  }

  /** Shows the context lines before a match at `line`, which starts at byte `start`. */
  private showBefore(line: number, start: number): boolean {
    const from = Math.max(this.lastShown + 1, line - this.context);
    if (from >= line) return true;
    const starts: number[] = [];
    let pos = start;
    for (let n = line - 1; n >= from && n >= this.first && pos > 0; n--) {
      pos = pos < 2 ? 0 : this.buf.lastIndexOf(10, pos - 2) + 1;
      starts.unshift(pos);
    }
    for (const h of this.held) {
      if (h.line >= from && h.line < line - starts.length && !this.emitHeld(h)) return false;
    }
    let n = line - starts.length;
    for (const s of starts) if (!this.emit(n++, s, lineEnd(this.buf, s), false)) return false;
    return true;
  }

  private emit(line: number, start: number, end: number, match: boolean): boolean {
    if (line <= this.lastShown) return true;
    if (!this.show(line, this.buf, start, end, match, this.offset + start)) {
      this.full = true;
      return false;
    }
    this.lastShown = line;
    this.nextPos = end + 1;
    return true;
  }

  private emitHeld(h: Held): boolean {
    if (h.line <= this.lastShown) return true;
    if (!this.show(h.line, h.bytes, 0, h.bytes.length, false)) {
      this.full = true;
      return false;
    }
    this.lastShown = h.line;
    return true;
  }

  /** Keeps copies of the block's last lines, for the before-context of a match in the next one. */
  private holdTail(block: Block): void {
    const buf = this.buf;
    let end = buf.length;
    if (end > 0 && buf[end - 1] === 10) end--;
    const held: Held[] = [];
    let line = lastLineOf(block);
    while (held.length < this.context && line >= block.line) {
      const start = end === 0 ? 0 : buf.lastIndexOf(10, end - 1) + 1;
      held.unshift({ line, bytes: Buffer.from(buf.subarray(start, Math.min(end, start + HELD_BYTES))) });
      if (start === 0) break;
      end = start - 1;
      line--;
    }
    // A block shorter than the context keeps lines from the blocks before it.
    const first = held[0]?.line ?? Number.POSITIVE_INFINITY;
    this.held = [...this.held.filter((h) => h.line < first), ...held].slice(-this.context);
  }
}
