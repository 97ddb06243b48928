/**
 * `ctxwrap read <id>`: get back any part of a stored output, numbered, cleaned and bounded,
 * streaming through results of any size in constant memory.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { CtxwrapError } from '../errors.js';
import { formatBytes, formatCount, formatDuration } from '../format.js';
import {
  BoundedOutput,
  type ShownLine,
  shownEnds,
  shownLine,
  type TrimmedLine,
  utf8Prefix,
  wholeBytes,
} from '../read/bounded-output.js';
import { grepDeadlineMs, withDeadline } from '../read/deadline.js';
import { fileLineAfter, fileLineBefore } from '../read/file-lines.js';
import { type GrepPlan, grepFile, planGrep } from '../read/grep.js';
import {
  type Block,
  BlockReader,
  countNewlinesBetween,
  lastLineOf,
  lastLinesStart,
  lineEnd,
  lineEndFrom,
} from '../read/line-reader.js';
import { type GrepRequest, type LineRange, type LineSpec, parseLineSpec } from '../read/parse-line-spec.js';
import { recordHeader } from '../search/record.js';
import { shieldFor } from '../shield.js';
import { validateId } from '../store/ids.js';
import { record } from '../store/ledger.js';
import { stateOf } from '../store/registry.js';
import { openStoredOutput, type ResultMeta, readMeta } from '../store/results.js';
import { openRunDir } from '../store/run-dir.js';
import { cleanLine } from '../summary/clean.js';
import { lineAfter, lineBefore } from '../summary/neighbours.js';
import { cutLine, inert } from '../summary/render.js';
import { storageCut, storageCutText } from './describe-result.js';

/** Default of `--max-chars`: about a thousand tokens. */
const DEFAULT_MAX_CHARS = 4000;
const NEWLINE = Buffer.from('\n');
/** Room for a line's number (`1234567: `) within `--max-chars`. */
const LINE_NUMBER_ROOM = 12;
/** The narrowest a line is cut to before the closing note is fitted. */
const MIN_CAP = 20;
/** Lines are decoded whole up to this many characters, to be cut to what fits afterwards. */
const WIDE = 16_384;

export interface ReadOptions {
  runDir: string;
  id: string;
  /** The `--lines` spec; undefined for the whole output. */
  lines?: string;
  /** Lines of context around each grep match. */
  context?: number;
  /** Show the header of the record of each grep match above it (see search/record.ts). */
  records?: boolean;
  /** Mask credentials in what is shown (default true; --raw never masks). */
  redact?: boolean;
  /** Exact stored bytes: no cleaning, no numbers. Without `lines` or `maxChars`, the whole file, unbounded. */
  raw?: boolean;
  /** Prefix each line with its number in the stored file (default true). */
  numbers?: boolean;
  /** Most characters printed, the closing note included; 0 for no limit. */
  maxChars?: number;
  /** How long a grep may take before it stops with an error (default: grepDeadlineMs of the size). */
  grepTimeoutMs?: number;
  /** Where text goes. */
  print: (text: string) => void;
  /** Where raw bytes go; false when nobody reads any more (a closed pipe). */
  printBytes: (chunk: Buffer) => boolean | Promise<boolean>;
  /** Where the note goes in raw mode, so that stdout holds only stored bytes. */
  warn: (text: string) => void;
}

/** What a selection found, for the closing note. */
interface Shown {
  /** Lines in the file. */
  total: number;
  /** The requested ranges (forward selections). */
  ranges?: LineRange[];
}

export async function readResult(opts: ReadOptions): Promise<number> {
  validateId(opts.id);
  const spec = parseLineSpec(opts.lines);
  if (opts.context !== undefined && opts.context > 0 && spec.kind !== 'grep') {
    throw new CtxwrapError('--context applies to --lines grep:PATTERN only');
  }
  const dir = openRunDir(opts.runDir);
  const meta = readMeta(dir, opts.id);
  const fd = openStoredOutput(dir, opts.id);
  try {
    const size = fstatSync(fd).size;
    if (opts.raw && spec.kind === 'all' && opts.maxChars === undefined) {
      const bytes = await streamAll(fd, opts.printBytes);
      record(dir, { kind: 'read', id: opts.id, bytes });
      return 0;
    }
    const { out, note } = select(fd, size, meta, spec, opts);
    let bytes = 0;
    if (opts.raw) {
      for (const l of out.lines) {
        bytes += l.out.length;
        if (!(await opts.printBytes(l.out as Buffer))) break;
      }
      if (note) opts.warn(note.replace(/^\[ctxwrap:? ?/, '').replace(/\]$/, ''));
    } else {
      const text = out.text(note);
      bytes = Buffer.byteLength(text);
      opts.print(text);
    }
    record(dir, { kind: 'read', id: opts.id, bytes });
    return 0;
  } finally {
    closeSync(fd);
  }
}

/** Takes the requested lines into a bounded output, with the closing note that fits. */
function select(
  fd: number,
  size: number,
  meta: ResultMeta,
  spec: LineSpec,
  opts: ReadOptions,
): { out: BoundedOutput; note: string | undefined } {
  const max = opts.maxChars === 0 ? Number.POSITIVE_INFINITY : (opts.maxChars ?? DEFAULT_MAX_CHARS);
  const out = new BoundedOutput(max, spec.kind === 'last');
  const numbers = opts.numbers !== false && !opts.raw;
  const shield = shieldFor(meta.keyRanges, opts.redact !== false);
  // A line may take all the room but its number; `fit` cuts it narrower when the note needs room.
  const cap = Math.max(MIN_CAP, max - LINE_NUMBER_ROOM);
  let lastHeader = 0;
  let lastMatch = 0;
  const context = opts.context ?? 0;
  const add = (
    line: number,
    buf: Buffer,
    start: number,
    end: number,
    match = true,
    at?: number,
    restAt?: number,
    fileAt = at,
  ): boolean => {
    if (opts.records && !opts.raw && match && at !== undefined) {
      const header = headerAbove(fd, line, buf, start, end, at);
      // Once per record, and only when it is above what is already shown.
      if (
        header &&
        header.n > lastHeader &&
        (lastMatch === 0 || header.n > lastMatch + context) &&
        header.n < line - context
      ) {
        lastHeader = header.n;
        const text = `[ctxwrap record] ${header.n}: ${inert(narrower(shield(header.n, header.text), cap))}`;
        if (!out.add(header.n, text, false)) return false;
      }
    }
    if (match) lastMatch = line;
    // A line longer than the reader holds goes on past this block, from byte `restAt` of the file.
    const lineEndAt = restAt === undefined ? undefined : lineEndFrom(fd, restAt);
    const length = lineEndAt === undefined ? end - start : end - start + lineEndAt - (restAt as number);
    if (opts.raw) {
      const bytes = Buffer.concat([buf.subarray(start, end), NEWLINE]);
      return out.add(line, bytes, match, (width) => utf8Prefix(bytes, width), length);
    }
    const wide = Math.max(cap, WIDE);
    // The lines before and after, where at hand, for a secret cut over two lines; a long line
    // shows two ends: the first is the line's start, the second its end.
    const long = lineEndAt !== undefined || end - start > wholeBytes(wide);
    // At a block's edge, they are read from the file (a secret may be cut across the edge).
    const endAt = lineEndAt ?? (fileAt === undefined ? undefined : fileAt + end - start);
    const before = () => lineBefore(buf, start) ?? (fileAt ? fileLineBefore(fd, fileAt) : undefined);
    const after = () => lineAfter(buf, end) ?? (endAt === undefined ? undefined : fileLineAfter(fd, endAt));
    let part = 0;
    const mask = (t: string) =>
      shield(line, t, !long ? { before, after } : part++ === 0 ? { before } : { after });
    const half = wholeBytes(wide) / 2;
    const shown: ShownLine =
      lineEndAt === undefined
        ? shownLine(buf, start, end, wide, mask)
        : shownEnds(buf.subarray(start, start + half), tailBefore(fd, lineEndAt, half), length, mask);
    const prefix = numbers ? `${line}${match ? ':' : '-'} ` : '';
    const recut = (width: number) => {
      const room = Math.max(1, width - prefix.length);
      return prefix + narrower(shown.at(room), room);
    };
    return out.add(line, recut(cap + prefix.length), match, recut, shown.length, shown.bytes);
  };
  const known = knownLines(meta, size);
  if (spec.kind === 'all' && meta.binary && !opts.raw) {
    const note = `[ctxwrap ${meta.id}] binary output (${formatBytes(size)}) not shown; --raw for the bytes, or --lines to see it as text`;
    return { out, note };
  }
  let closing: () => string | undefined;
  if (spec.kind === 'grep') {
    const found = grepWithin(fd, size, spec, meta, opts, add);
    closing = () => grepNote(spec, out, found, meta, size, opts.raw === true);
  } else {
    const shown =
      spec.kind === 'last'
        ? selectLast(fd, size, spec.count, known, add)
        : selectForward(fd, rangesOf(spec), known, add);
    closing = () => rangeNote(spec, out, shown, meta, size, opts.raw === true);
  }
  // Raw bytes go to stdout alone: the note then goes to stderr and takes no room.
  if (!opts.raw) return { out, note: out.fit(closing) };
  out.fit(() => undefined);
  return { out, note: closing() };
}

/** Greps the file into `add`, within the deadline for its size (a runaway pattern is an error). */
function grepWithin(
  fd: number,
  size: number,
  spec: GrepRequest,
  meta: ResultMeta,
  opts: ReadOptions,
  add: Parameters<typeof grepFile>[3],
): ReturnType<typeof grepFile> {
  const limit = opts.grepTimeoutMs ?? grepDeadlineMs(size);
  return withDeadline(
    limit,
    () => grepFile(fd, grepPlan(spec, meta, opts), opts.context ?? 0, add),
    () => {
      throw new CtxwrapError(
        `--lines 'grep:…': the pattern took more than ${formatDuration(limit)} on this output (catastrophic backtracking?); use a simpler one, without nested repeats such as (a+)+`,
      );
    },
  );
}

/**
 * The grep plan; unless --raw or --no-redact, lines are tested as shown, masked (by a shield of
 * their own: the one that shows lines keeps the state of the line shown before).
 */
function grepPlan(spec: GrepRequest, meta: ResultMeta, opts: ReadOptions): GrepPlan {
  const plan = planGrep(spec);
  if (opts.raw || opts.redact === false) return plan;
  const shield = shieldFor(meta.keyRanges, true);
  return { ...plan, mask: (line, text, around) => shield(line ?? 0, text, around) };
}

/** The line count in the metadata, when it describes the file as it is now. */
function knownLines(meta: ResultMeta, size: number): number | undefined {
  return meta.state === 'complete' && meta.bytes === size && typeof meta.lines === 'number'
    ? meta.lines
    : undefined;
}

function rangesOf(spec: LineSpec): LineRange[] {
  if (spec.kind === 'ranges') return spec.ranges;
  if (spec.kind === 'first') return [{ from: 1, to: spec.count }];
  return [{ from: 1, to: Number.POSITIVE_INFINITY }];
}

type Add = (
  line: number,
  buf: Buffer,
  start: number,
  end: number,
  match?: boolean,
  at?: number,
  restAt?: number,
  fileAt?: number,
) => boolean;

/** Shows the requested ranges in order while they fit; reads no further than needed. */
function selectForward(fd: number, ranges: LineRange[], known: number | undefined, add: Add): Shown {
  const reader = new BlockReader(fd);
  let total = 0;
  let r = 0;
  let lastShown = 0;
  let firstUnshown: number | undefined;
  for (let block = reader.next(); block; block = reader.next()) {
    total = lastLineOf(block);
    const buf = block.buf;
    for (let pos = 0, line = block.line; firstUnshown === undefined && pos < buf.length; line++) {
      while (r < ranges.length && (ranges[r] as LineRange).to < line) r++;
      const range = ranges[r];
      if (!range || range.from > total) break;
      const end = lineEnd(buf, pos);
      if (line >= range.from && line > lastShown) {
        if (add(line, buf, pos, end, true, undefined, restAt(block, end), block.offset + pos))
          lastShown = line;
        else firstUnshown = line;
      }
      pos = end + 1;
    }
    if (known !== undefined && (firstUnshown !== undefined || r >= ranges.length)) {
      total = known;
      break;
    }
  }
  return { total, ranges };
}

/** Shows the last `count` lines, or as many of the last ones as fit. */
function selectLast(fd: number, size: number, count: number, known: number | undefined, add: Add): Shown {
  const { offset, lines } = lastLinesStart(fd, size, count);
  const total = known ?? countNewlinesBetween(fd, 0, offset) + lines;
  const first = total - lines + 1;
  const reader = new BlockReader(fd, { from: offset, line: first });
  for (let block = reader.next(); block && block.line <= total; block = reader.next()) {
    const buf = block.buf;
    for (let pos = 0, line = block.line; pos < buf.length && line <= total; line++) {
      const end = lineEnd(buf, pos);
      if (!(block.continued && pos === 0))
        add(line, buf, pos, end, true, undefined, restAt(block, end), block.offset + pos);
      pos = end + 1;
    }
  }
  return { total };
}

/** Where the line ending the block at `end` goes on in the file, when the block cut it. */
function restAt(block: Block, end: number): number | undefined {
  return block.cut && end === block.buf.length ? block.offset + end : undefined;
}

/** The last `max` bytes before byte `end` of the file. */
function tailBefore(fd: number, end: number, max: number): Buffer {
  const from = Math.max(0, end - max);
  const buf = Buffer.allocUnsafe(end - from);
  const got = readSync(fd, buf, 0, buf.length, from);
  return buf.subarray(0, got);
}

/** The requested ranges from line `from` on, as a spec to ask for them next. */
function restOf(ranges: LineRange[], from: number, total: number): string {
  return ranges
    .filter((r) => r.to >= from && r.from <= total)
    .map((r) => {
      const a = Math.max(r.from, from);
      if (r.to === Number.POSITIVE_INFINITY) return `${a}-`;
      const b = Math.min(r.to, total);
      return a === b ? String(a) : `${a}-${b}`;
    })
    .join(',');
}

function stateNote(meta: ResultMeta, size: number): string | undefined {
  const cut = storageCut(meta, size);
  if (cut) return `${meta.id} is cut short: ${storageCutText(cut)}; its last line may be incomplete`;
  const state = stateOf(meta);
  if (state === 'running') return `${meta.id} is still running`;
  if (state === 'incomplete') return `${meta.id} is incomplete: ctxwrap stopped before the command ended`;
  return undefined;
}

function rangeNote(
  spec: LineSpec,
  out: BoundedOutput,
  shown: Shown,
  meta: ResultMeta,
  size: number,
  raw = false,
): string | undefined {
  const parts: string[] = [];
  const lines = `${formatCount(shown.total)} line${shown.total === 1 ? '' : 's'}`;
  if (shown.total === 0) parts.push(`${meta.id} has no output`);
  else if (out.lines.length === 0 && !out.cut)
    parts.push(
      `no such line${spec.kind === 'ranges' ? ` (${spec.ranges.map(rangeText).join(',')})` : ''}: ${meta.id} has ${lines}`,
    );
  else if (out.lines.length === 0)
    parts.push(`no line fits in --max-chars ${out.max} with this note; raise --max-chars`);
  else if (out.cut) {
    const what = `lines ${out.shownRanges()} of ${formatCount(shown.total)} shown`;
    const rest =
      spec.kind === 'last'
        ? earlierSpec(out, Math.max(1, shown.total - spec.count + 1))
        : restOf(shown.ranges ?? [], (out.lines.at(-1)?.line ?? 0) + 1, shown.total);
    const hint = spec.kind === 'all' ? ', or --lines grep:PATTERN' : '';
    if (out.trimmed)
      // Short, so that the line cut to make room for it keeps some width.
      parts.push(
        rest
          ? `${what} (${trimmedText(out.trimmed, raw)}); more: --lines ${rest}`
          : `${trimmedText(out.trimmed, raw)} to fit --max-chars ${out.max}`,
      );
    else
      parts.push(
        `${what}; the rest did not fit in --max-chars ${out.max}${rest ? `: --lines ${rest}` : ''}${hint}`,
      );
  } else if (
    spec.kind === 'ranges' &&
    spec.ranges.some((r) => r.to !== Number.POSITIVE_INFINITY && r.to > shown.total)
  ) {
    parts.push(`${meta.id} has ${lines}`);
  }
  const state = stateNote(meta, size);
  if (state) parts.push(state);
  return parts.length ? `[ctxwrap: ${parts.join('; ')}]` : undefined;
}

/** A line cut to `width` characters: its two ends, or only its start when too narrow for that. */
function narrower(text: string, width: number): string {
  const cut = cutLine(text, width);
  if (cut.length <= width) return cut;
  const end = width - 1 > 0 && /[\ud800-\udbff]/.test(text[width - 2] ?? '') ? width - 2 : width - 1;
  return `${text.slice(0, Math.max(0, end))}…`;
}

/** Says which line was cut to fit, and how long it is. */
function trimmedText(t: TrimmedLine, raw: boolean): string {
  return `line ${t.line} cut from ${formatCount(t.length)} ${raw || t.bytes ? 'bytes' : 'chars'}`;
}

/** The requested lines before the first one shown (`last:N` keeps the end). */
function earlierSpec(out: BoundedOutput, firstRequested: number): string | undefined {
  const lastLeft = (out.lines[0]?.line ?? Number.POSITIVE_INFINITY) - 1;
  if (lastLeft < firstRequested) return undefined;
  return lastLeft === firstRequested ? String(lastLeft) : `${firstRequested}-${lastLeft}`;
}

function rangeText(r: LineRange): string {
  if (r.from === r.to) return String(r.from);
  return r.to === Number.POSITIVE_INFINITY ? `${r.from}-` : `${r.from}-${r.to}`;
}

function grepNote(
  spec: GrepRequest,
  out: BoundedOutput,
  found: { matches: number; lines: number; firstUnshown?: number },
  meta: ResultMeta,
  size: number,
  raw = false,
): string {
  const searched = `${formatCount(found.lines)} line${found.lines === 1 ? '' : 's'} searched`;
  const parts: string[] = [];
  const shownMatches = out.lines.filter((l) => l.match).length;
  if (found.matches === 0) parts.push(`no line matches ${spec.source} (${searched})`);
  else if (shownMatches === found.matches)
    parts.push(`${formatCount(found.matches)} matching line${found.matches === 1 ? '' : 's'} (${searched})`);
  else {
    const next = Math.min(
      out.firstDroppedMatch ?? Number.POSITIVE_INFINITY,
      found.firstUnshown ?? Number.POSITIVE_INFINITY,
    );
    parts.push(
      `${formatCount(shownMatches)} of ${formatCount(found.matches)} matching lines shown (${searched}); the rest did not fit in --max-chars ${out.max}${Number.isFinite(next) ? `, next at line ${next}` : ''}: narrow the pattern or raise --max-chars`,
    );
  }
  if (out.trimmed) parts.push(trimmedText(out.trimmed, raw));
  const state = stateNote(meta, size);
  if (state) parts.push(state);
  return `[ctxwrap: ${parts.join('; ')}]`;
}

/** Copies the whole stored file, exactly, to `write` (for a person or a pipe). */
async function streamAll(fd: number, write: (chunk: Buffer) => boolean | Promise<boolean>): Promise<number> {
  let sent = 0;
  for (let pos = 0; ; ) {
    const chunk = Buffer.allocUnsafe(1 << 20);
    const n = readSync(fd, chunk, 0, chunk.length, pos);
    if (n === 0) break;
    pos += n;
    sent += n;
    if (!(await write(chunk.subarray(0, n)))) break;
  }
  return sent;
}

/** The header of the record of a matching line (bounded: see search/record.ts); none for a long line. */
function headerAbove(
  fd: number,
  line: number,
  buf: Buffer,
  start: number,
  end: number,
  at: number,
): { n: number; text: string } | undefined {
  if (end - start > 4096) return undefined;
  return recordHeader(fd, { n: line, text: cleanLine(buf.toString('utf8', start, end)), start: at });
}
