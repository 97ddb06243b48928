/**
 * The scan: one streaming pass over a stored output looking for literal words, 1 MiB at a time
 * (memory stays flat whatever the size). A word is looked for as written, in lower case, in
 * upper case and capitalised (`refused`, `REFUSED`, `Refused`), each with Buffer.indexOf; lines
 * are counted only in outputs that hold a match, so a rare word costs little more than reading.
 * Every match comes back with its byte offset and its exact 1-based line number.
 */
import { closeSync, readSync } from 'node:fs';
import { openFileForRead } from '../store/safe-open.js';
import { looksBinary, SNIFF_BYTES } from '../summary/sniff.js';
import { type Engine, engines } from './engine.js';
import { grepParser } from './engine-output.js';
import { runEngine } from './engine-run.js';

export { grepParser };

const CHUNK = 1 << 20;
/** Matches kept per output and word (counting goes on past it: the statistics stay exact). */
const MAX_KEPT = 64;
/**
 * Matches kept per output beyond those, in windows that hold two or more matches (the windows
 * ranked first, wherever they are in the output).
 */
const MAX_DENSE = 64;

interface Match {
  /** Index of the literal in the list scanned for. */
  word: number;
  /** Byte offset of the match in the output. */
  offset: number;
  /** 1-based line number. */
  line: number;
}

export interface Scanned {
  /** True when the content looks like binary data (not searched). */
  binary: boolean;
  /** Matches in output order: the first MAX_KEPT per word, then some in dense windows (MAX_DENSE). */
  matches: Match[];
  /** Per literal: the windows (see windowsOf) that hold it, each once, ascending. */
  windows: number[][];
  /** Lines in the output when they were counted (an output with a match), else undefined. */
  lines?: number;
  /** Bytes scanned (0 from scanWithGrep: the caller knows the sizes). */
  bytes: number;
}

/** Lines in one block; a window is two adjacent blocks (8 lines), one starting at every block. */
export const BLOCK = 4;

/** The literal byte forms of a word: as given, lower, upper, capitalised. */
export function formsOf(word: string): Buffer[] {
  const lower = word.toLowerCase();
  const forms = new Set([word, lower, word.toUpperCase(), lower.charAt(0).toUpperCase() + lower.slice(1)]);
  return [...forms].filter((f) => f !== '').map((f) => Buffer.from(f));
}

function countNewlines(view: Uint8Array, from: number, to: number): number {
  const b = view as Buffer;
  let n = 0;
  for (let i = b.indexOf(10, from); i !== -1 && i < to; i = b.indexOf(10, i + 1)) n++;
  return n;
}

/** Newlines in bytes [0, end) of the file (read again from the page cache). */
function newlinesBefore(fd: number, buf: Buffer, end: number): number {
  let n = 0;
  for (let pos = 0; pos < end; ) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (got === 0) break;
    n += countNewlines(buf, 0, got);
    pos += got;
  }
  return n;
}

/**
 * Appends the matches of each of `forms` before `limit` to `found` (offset, literal), each
 * form's in ascending order; returns how many forms matched.
 */
function findAll(view: Buffer, limit: number, forms: Buffer[], w: number, found: number[]): number {
  let matched = 0;
  for (const form of forms) {
    const from = found.length;
    for (let i = view.indexOf(form); i !== -1 && i < limit; i = view.indexOf(form, i + 1)) found.push(i, w);
    if (found.length > from) matched++;
  }
  return matched;
}

/** One buffer for every scan of this process (outputs are scanned one after the other). */
let shared: Buffer | undefined;
let spareBuf: Buffer | undefined;
const spare = () => {
  spareBuf ??= Buffer.allocUnsafe(CHUNK);
  return spareBuf;
};

/** Scans one output for `literals` (each with its forms, see formsOf). */
export function scanFile(path: string, literals: Buffer[][]): Scanned {
  const out = emptyScan(literals.length);
  const longest = Math.max(1, ...literals.flat().map((f) => f.length));
  const kept = keeper(literals.length);
  let fd: number;
  try {
    fd = openFileForRead(path);
  } catch {
    return out;
  }
  shared ??= Buffer.allocUnsafe(CHUNK);
  const buf = shared;
  try {
    let pos = 0;
    let counting = false;
    let newlines = 0;
    let lastByte = 10;
    const found: number[] = [];
    for (;;) {
      const got = readSync(fd, buf, 0, CHUNK, pos);
      if (got === 0) break;
      const view = buf.subarray(0, got);
      // Work on whole lines; a line longer than the chunk is cut where no match can straddle.
      let limit = got;
      if (got === CHUNK) {
        limit = view.lastIndexOf(10) + 1;
        if (limit === 0) limit = Math.max(1, got - longest + 1);
      }
      found.length = 0;
      let lists = 0;
      for (let w = 0; w < literals.length; w++) lists += findAll(view, limit, literals[w]!, w, found);
      if (found.length > 0) {
        if (!counting) {
          // Binary is decided on the content, once an output has something to show.
          const head = pos === 0 ? view : spare();
          const headLen = pos === 0 ? got : readSync(fd, head, 0, SNIFF_BYTES, 0);
          if (binaryHead(head.subarray(0, Math.min(headLen, SNIFF_BYTES)))) {
            out.binary = true;
            return out;
          }
          counting = true;
          newlines = pos > 0 ? newlinesBefore(fd, spare(), pos) : 0;
        }
        // The newlines before each match, counted from the previous one with a cursor on the next
        // newline: a line longer than the chunk holding many matches costs one pass, not one
        // search to the chunk's end per match.
        let nl = view.indexOf(10);
        const upTo = (i: number) => {
          while (nl !== -1 && nl < i) {
            newlines++;
            nl = view.indexOf(10, nl + 1);
          }
        };
        if (lists === 1) {
          // The matches of one form: in order already, nothing to sort.
          const w = found[1]!;
          for (let k = 0; k < found.length; k += 2) {
            upTo(found[k]!);
            note(out, kept, w, pos + found[k]!, newlines + 1);
          }
        } else {
          // Matches in output order: offset and literal packed in one number, sorted natively.
          const order = new Float64Array(found.length / 2);
          for (let k = 0; k < order.length; k++) order[k] = found[2 * k]! * 64 + found[2 * k + 1]!;
          order.sort();
          for (const packed of order) {
            const i = Math.floor(packed / 64);
            upTo(i);
            note(out, kept, packed - i * 64, pos + i, newlines + 1);
          }
        }
        upTo(limit);
      } else if (counting) {
        newlines += countNewlines(view, 0, limit);
      }
      lastByte = view[limit - 1]!;
      pos += limit;
    }
    out.bytes = pos;
    if (counting) out.lines = newlines + (pos > 0 && lastByte !== 10 ? 1 : 0);
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Records one match found at `offset` on 1-based `line` of literal `w` into `out`. */
function note(out: Scanned, kept: Keeper, w: number, offset: number, line: number): void {
  const block = Math.floor((line - 1) / BLOCK);
  // The match is in the window starting at its block and in the one before.
  const wins = out.windows[w]!;
  if (block > 0 && (wins.length === 0 || wins[wins.length - 1]! < block - 1)) wins.push(block - 1);
  if (wins.length === 0 || wins[wins.length - 1]! < block) wins.push(block);
  if (kept.perWord[w]! < MAX_KEPT) {
    kept.perWord[w]!++;
    out.matches.push({ word: w, offset, line });
    return;
  }
  // Past those: the matches of windows holding two or more (a window spans this block and the one before).
  if (kept.dense >= MAX_DENSE) return;
  if (kept.denseBlock >= block - 1) {
    kept.dense++;
    kept.denseBlock = block;
    out.matches.push({ word: w, offset, line });
    return;
  }
  // A match waits for a second in its window (at most one waits: a second one flushes both).
  if (kept.pendingLine > 0 && Math.floor((kept.pendingLine - 1) / BLOCK) < block - 1) kept.pendingLine = 0;
  if (kept.pendingLine === 0) {
    kept.pendingWord = w;
    kept.pendingOffset = offset;
    kept.pendingLine = line;
    return;
  }
  out.matches.push({ word: kept.pendingWord, offset: kept.pendingOffset, line: kept.pendingLine });
  if (kept.dense + 1 < MAX_DENSE) out.matches.push({ word: w, offset, line });
  kept.dense = Math.min(MAX_DENSE, kept.dense + 2);
  kept.denseBlock = block;
  kept.pendingLine = 0;
}

/** What one output's scan has kept so far (see note). */
interface Keeper {
  perWord: number[];
  /** Matches kept in dense windows, and the block of the last of them. */
  dense: number;
  denseBlock: number;
  /**
   * The match not kept of this block or the one before, waiting for a second (no object made
   * per match: a common word has 10^5); pendingLine 0 when there is none.
   */
  pendingWord: number;
  pendingOffset: number;
  pendingLine: number;
}

const keeper = (literals: number): Keeper => ({
  perWord: new Array<number>(literals).fill(0),
  dense: 0,
  denseBlock: -2,
  pendingWord: 0,
  pendingOffset: 0,
  pendingLine: 0,
});

/** (Loops, not Array.from of a length: its generic path costs microseconds a call, cold.) */
function emptyScan(literals: number): Scanned {
  const windows: number[][] = [];
  for (let w = 0; w < literals; w++) windows.push([]);
  return { binary: false, matches: [], windows, bytes: 0 };
}

/**
 * The same scan done by a search engine in a child process (engine.ts: ripgrep, else grep; the
 * matches that are forms of a literal are kept: one pass in C or Rust over each output, line
 * numbers and byte offsets included), so that both cores work: ripgrep with two threads, grep
 * as two processes over every other output. An engine that cannot be started is passed over for the next. Resolves undefined when
 * none can run or one fails (the caller falls back on scanFile). Binary is not decided here:
 * see isBinaryOutput.
 */
export async function scanWithGrep(
  cwd: string,
  names: string[],
  literals: Buffer[][],
  choice: Engine[] = engines(),
  signal?: AbortSignal,
): Promise<Scanned[] | undefined> {
  for (const engine of choice) {
    const got = await scanWith(engine, cwd, names, literals, signal);
    if (signal?.aborted) return undefined;
    if (got !== 'unrunnable') return got;
  }
  return undefined;
}

async function scanWith(
  engine: Engine,
  cwd: string,
  names: string[],
  literals: Buffer[][],
  signal?: AbortSignal,
): Promise<Scanned[] | undefined | 'unrunnable'> {
  // Made for an output at its first match (most outputs have none, and grep starts sooner).
  const out: (Scanned | undefined)[] = [];
  const kept: Keeper[] = [];
  const scanned = () => {
    const all: Scanned[] = [];
    for (let i = 0; i < names.length; i++) all.push(out[i] ?? emptyScan(literals.length));
    return all;
  };
  const forms: { bytes: Buffer; word: number }[] = [];
  literals.forEach((list, w) => {
    for (const f of list) if (!forms.some((x) => x.bytes.equals(f))) forms.push({ bytes: f, word: w });
  });
  // grep -i (ASCII case folding in the C locale) looks for one pattern where the forms are
  // several: GNU grep's search for a set of literals is 2-4x slower than its search for one,
  // folded. A match in another mix of case (`eRRor`) is not a form and is dropped. ripgrep is
  // given the forms themselves, matched as written: its search for a set of literals is as
  // fast as for one, and for several words 2x faster than a folded search (`connection
  // refused postgres` over the bench corpus: 0.02 s of CPU against 0.05 s per half).
  // As UTF-8 text: spawn encodes an argument in UTF-8 (latin1 text was encoded twice, and a
  // word such as `café` was found nowhere).
  // Longest first: ripgrep reports, of patterns matching at one place, the first given (grep
  // the longest): `failed` before `fail`, so both report FAILED as `failed`.
  const fold = engine.name === 'grep' ? asciiLower : (s: string) => s;
  const patterns = [...new Set(forms.map((f) => fold(f.bytes.toString('utf8'))))].sort(
    (a, b) => Buffer.byteLength(b) - Buffer.byteLength(a),
  );
  if (names.length === 0 || patterns.length === 0) return scanned();
  // Every other output to each of two greps (outputs are named by command, and one command's
  // outputs are alike in size: halves by name would not be halves by bytes). Under 8 outputs, a
  // second process costs more than it saves. ripgrep runs two threads in one process (engine.ts).
  const all = names.map((_, i) => i);
  const groups =
    names.length > 8 && engine.name === 'grep'
      ? [all.filter((i) => i % 2 === 0), all.filter((i) => i % 2 === 1)]
      : [all];
  // One function for both parsers: a second (a closure per group) made V8 drop the parse's
  // optimised code halfway (a call target it had not seen) and compile it again.
  const found = (f: number, w: number, offset: number, line: number) => {
    if (!out[f]) {
      out[f] = emptyScan(literals.length);
      kept[f] = keeper(literals.length);
    }
    note(out[f], kept[f]!, w, offset, line);
  };
  const runs = groups.map((group) =>
    runEngine(
      engine,
      patterns,
      group.map((i) => names[i]!),
      cwd,
      grepParser(names, group, forms, found, engine.name === 'rg'),
      signal,
    ),
  );
  const ends = await Promise.all(runs);
  if (ends.includes('unrunnable')) return 'unrunnable';
  if (ends.includes('failed')) return undefined;
  return scanned();
}

/** Lowercases ASCII letters only (what grep -i folds in the C locale). */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * A control byte as looksBinary counts them (below 0x20, but tab, newline, vertical tab, form
 * feed, carriage return, backspace and escape): a sample without one is text by its rule, which
 * one native pass tells (looksBinary's loop over 8 KiB of each output costs more, cold).
 */
const CONTROL = /[\x00-\x07\x0e-\x1a\x1c-\x1f]/;

/** looksBinary of `head`, told at once for the usual text without a control byte. */
const binaryHead = (head: Buffer) => CONTROL.test(head.toString('latin1')) && looksBinary(head);

/** Binary decided on the content of the output at `path` (its first SNIFF_BYTES). */
export function isBinaryOutput(path: string): boolean {
  try {
    const fd = openFileForRead(path);
    try {
      const head = spare();
      const got = readSync(fd, head, 0, SNIFF_BYTES, 0);
      return binaryHead(head.subarray(0, got));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
