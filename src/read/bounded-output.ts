/**
 * What `read` prints, kept within `--max-chars`: lines are taken while they fit, and before the
 * closing note is added lines are given back until the note fits too. Reading is not exempt
 * from the context budget.
 */
import { formatCount } from '../format.js';
import { cleanLine } from '../summary/clean.js';
import { cutLine, inert } from '../summary/render.js';

export interface OutputLine {
  line: number;
  /** False for a context line around a grep match. */
  match: boolean;
  /** The printed line without its newline, or (raw) the exact bytes with it. */
  out: string | Buffer;
  cost: number;
  /** The same line cut to at most `width` characters (bytes, raw), its number kept. */
  recut?: (width: number) => string | Buffer;
  /** Characters (bytes, raw) of the line before any cut to fit. */
  length?: number;
  /** `length` counts bytes though the line is shown as text (too long to decode whole). */
  bytes?: boolean;
}

/** A line shown cut so that it fits in `--max-chars` with the closing note. */
export interface TrimmedLine {
  line: number;
  /** Characters (bytes, raw) the line has. */
  length: number;
  /** `length` counts bytes though the line is shown as text. */
  bytes?: boolean;
}

/** The longest start of `bytes` that is at most `max` bytes and does not end inside a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = Math.max(0, max);
  // Back off continuation bytes, then the lead byte of the cut character.
  let back = end;
  while (back > 0 && ((bytes[back] as number) & 0xc0) === 0x80) back--;
  if (back < end || ((bytes[end] as number) & 0xc0) === 0x80) end = back;
  return bytes.subarray(0, end);
}

/** The note when no line fits and the note itself would not fit either (at least this is said). */
export const SHORT_NOTE = '[ctxwrap: raise --max-chars]';

/** Narrower than this, a line cut to make room for the note is not worth showing. */
const MIN_RECUT = 16;

export class BoundedOutput {
  readonly lines: OutputLine[] = [];
  /** True once a line was refused or given back for lack of room. */
  cut = false;
  /** The first matching line given back by `fit`, if any. */
  firstDroppedMatch: number | undefined;
  /** The line cut to make room, when a single line did not fit whole. */
  trimmed: TrimmedLine | undefined;
  private used = 0;

  /**
   * @param max most characters (bytes, for raw lines) printed, the note included.
   * @param keepEnd keep the last lines rather than the first (for `last:N`).
   */
  constructor(
    readonly max: number,
    private readonly keepEnd = false,
  ) {}

  /**
   * Adds a line; false (and nothing added) when it does not fit. A first raw line longer than
   * the whole limit is cut, at a character boundary.
   */
  add(
    line: number,
    out: string | Buffer,
    match = true,
    recut?: OutputLine['recut'],
    length?: number,
    bytes?: boolean,
  ): boolean {
    if (out.length > this.max && typeof out !== 'string' && this.lines.length === 0) {
      this.trimmed = { line, length: length ?? out.length };
      out = recut ? recut(this.max) : utf8Prefix(out, this.max);
      this.cut = true;
    }
    const cost = typeof out === 'string' ? out.length + 1 : out.length;
    if (!this.keepEnd && this.used + cost > this.max) {
      this.cut = true;
      return false;
    }
    this.lines.push({
      line,
      match,
      out,
      cost,
      ...(recut ? { recut } : {}),
      ...(length ? { length } : {}),
      ...(bytes ? { bytes } : {}),
    });
    this.used += cost;
    while (this.keepEnd && this.used > this.max && this.lines.length > 1) this.drop();
    return true;
  }

  /**
   * Gives lines back until `note()` fits as well; returns the note that fits. The last line left
   * is cut narrower rather than given back, while that leaves it a few characters.
   */
  fit(note: () => string | undefined): string | undefined {
    for (let tries = 0; ; tries++) {
      const text = note();
      const room = this.max - (text === undefined ? 0 : text.length + 1);
      if (this.used <= room) return text;
      if (this.lines.length === 0) return text === undefined || text.length <= this.max ? text : SHORT_NOTE;
      const only = this.lines.length === 1 ? (this.lines[0] as OutputLine) : undefined;
      if (only?.recut && tries < 6) {
        if (this.trimmed?.line !== only.line) {
          // First see how short the note gets once it says the line is cut.
          this.trimmed = {
            line: only.line,
            length: only.length ?? only.out.length,
            ...(only.bytes ? { bytes: true } : {}),
          };
          this.cut = true;
          continue;
        }
        const width = room - (typeof only.out === 'string' ? 1 : 0);
        if (width >= MIN_RECUT && width < only.cost) {
          const out = only.recut(width);
          this.used -= only.cost;
          only.out = out;
          only.cost = typeof out === 'string' ? out.length + 1 : out.length;
          this.used += only.cost;
          continue;
        }
      }
      this.drop();
    }
  }

  /** The printed text lines (not raw). */
  text(note: string | undefined): string {
    const lines = this.lines.map((l) => l.out as string);
    if (note !== undefined) lines.push(note);
    return lines.length ? `${lines.join('\n')}\n` : '';
  }

  /** The first and last line shown, as ranges: `1-20,900-930`. */
  shownRanges(): string {
    return rangesText(this.lines.map((l) => l.line));
  }

  private drop(): void {
    const gone = (this.keepEnd ? this.lines.shift() : this.lines.pop()) as OutputLine;
    this.used -= gone.cost;
    this.cut = true;
    if (this.trimmed?.line === gone.line) this.trimmed = undefined;
    if (gone.match && !this.keepEnd) this.firstDroppedMatch = gone.line;
  }
}

/** Sorted line numbers as compact ranges: [1,2,3,7] → `1-3,7`. */
function rangesText(lines: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) <= (lines[j] as number) + 1) j++;
    parts.push(i === j ? String(lines[i]) : `${lines[i]}-${lines[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Lines longer than this are never decoded whole to be shown (only their two ends are). */
const WHOLE_BYTES = 1 << 16;

/** A stored line as `read` shows it, at any width, and how long it is. */
export interface ShownLine {
  /** The line cut to at most about `width` characters, keeping its start and end. */
  at: (width: number) => string;
  /** Its length: in characters when decoded whole, else in bytes. */
  length: number;
  /** `length` counts bytes: the line was too long to decode whole. */
  bytes: boolean;
}

/**
 * A stored line as `read` shows it: cleaned like the summary, credentials masked (`mask`), cut
 * to the width asked keeping its start and end, and made inert if it could pass for one of
 * ctxwrap's own lines. Lines up to `wholeBytes(cap)` are decoded whole, so a cut says how many
 * characters it left out; a longer one shows its two ends around its size in bytes.
 */
export function shownLine(
  buf: Buffer,
  start: number,
  end: number,
  cap: number,
  mask: (text: string) => string = (text) => text,
): ShownLine {
  const whole = wholeBytes(cap);
  if (end - start <= whole) {
    const text = inert(mask(cleanLine(buf.toString('utf8', start, end))));
    return { at: (width) => cutLine(text, width), length: text.length, bytes: false };
  }
  const half = whole / 2;
  return shownEnds(buf.subarray(start, start + half), buf.subarray(end - half, end), end - start, mask);
}

/** Longest line (bytes) decoded whole to be shown at `cap` characters. */
export function wholeBytes(cap: number): number {
  return Math.max(WHOLE_BYTES, cap * 4);
}

/**
 * A line too long to decode whole, from its first and last bytes (`head`, `tail`) and its length
 * in bytes: its two ends around a note of its size.
 */
export function shownEnds(
  head: Buffer,
  tail: Buffer,
  length: number,
  mask: (text: string) => string = (text) => text,
): ShownLine {
  const note = `…[line of ${formatCount(length)} bytes cut]…`;
  const first = mask(cleanLine(head.toString('utf8')));
  const last = mask(cleanLine(tail.toString('utf8')));
  const at = (width: number) => {
    const room = Math.max(8, width - note.length);
    return inert(
      `${first.slice(0, Math.ceil(room * 0.6))}${note}${last.slice(last.length - Math.floor(room * 0.4))}`,
    );
  };
  return { at, length, bytes: true };
}
