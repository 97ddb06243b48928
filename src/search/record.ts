/**
 * The record a line belongs to: the nearest line above it that starts its record, found from
 * indentation and line shape, the same for every tool. Above an indented line, it is the nearest
 * less-indented line that is not a `Key: value` field (`commit <hash>` above a git log message,
 * past its `Date:` and `Author:`; `"time": {` above a JSON key; the package above a dependency in
 * a tree). Above a line that is not indented, it is the nearest unindented line that opens a
 * block: after a blank line, ending in `:` (an `ls -R` directory, `Traceback …:`), or led by a
 * word in capitals (`FAIL …`, `=== RUN …`, `--- FAIL: …`, `ERROR …`). Looked for at most
 * MAX_UP lines and MAX_UP_BYTES above; none when the line starts its record itself.
 */
import { readSync } from 'node:fs';
import { cleanLine } from '../summary/clean.js';

/** Most lines looked through above a hit for its record's header. */
export const MAX_UP = 300;
/** Most bytes read above a hit for its record's header. */
export const MAX_UP_BYTES = 128 * 1024;
/** Longest line taken for a header (a longer one is no header). */
const MAX_HEADER = 2048;

/** Leading blanks, and `│` / `|` of a drawn tree, counted as indentation (a tab as 8). */
function indentOf(text: string): number {
  let n = 0;
  for (const ch of text) {
    if (ch === ' ' || ch === '│' || ch === '|') n++;
    else if (ch === '\t') n += 8;
    else return n;
  }
  return -1;
}

const FIELD = /^[A-Za-z][\w-]*:\s+\S/;
const OPENS = /:\s*$|^[^\p{L}\p{N}\s]{0,4}\s*\p{Lu}{3,}\b|^[\p{Lu}][\w]*(?:Error|Exception)\b|^Traceback\b/u;

/** OPENS's first form alone. */
const ENDS_OPEN = /:\s*$/;

/** True when an unindented line opens a block (see the module comment). */
export function opensBlock(text: string, afterBlank: boolean): boolean {
  if (indentOf(text) !== 0 || FIELD.test(text)) return false;
  if (afterBlank) return true;
  // OPENS's other forms start with a capital, after a few symbols at most: a line led by a
  // lowercase ASCII letter or a digit (most lines of a log) needs only the first, without the
  // Unicode classes (the walk above a hit tests up to MAX_UP lines).
  const c = text.charCodeAt(0);
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return ENDS_OPEN.test(text);
  return OPENS.test(text);
}

/**
 * The header of the record of the line `n` (1-based, text `text`, starting at byte `start`),
 * read from `fd`; undefined when none is found within the bounds or the line starts its record.
 */
export function recordHeader(
  fd: number,
  line: { n: number; text: string; start: number },
): { n: number; text: string } | undefined {
  const indent = indentOf(line.text);
  if (indent < 0 || line.start <= 0 || line.n <= 1) return undefined;
  if (indent === 0 && opensBlock(line.text, false)) return undefined;
  // Most headers are a few lines up: a small read first, the whole MAX_UP_BYTES only when the
  // walk gets to the top of it (the same answer either way).
  const near = headerAbove(fd, line, indent, FIRST_READ);
  return near === TOP ? (headerAbove(fd, line, indent, MAX_UP_BYTES) as Header | undefined) : near;
}

type Header = { n: number; text: string };
/** The walk reached the top of what was read before deciding. */
const TOP = Symbol('top');
/** Bytes read above a hit first. */
const FIRST_READ = 16 * 1024;

function headerAbove(
  fd: number,
  line: { n: number; start: number },
  indent: number,
  bytes: number,
): Header | undefined | typeof TOP {
  const from = Math.max(0, line.start - bytes);
  const buf = Buffer.allocUnsafe(line.start - from);
  let got = 0;
  while (got < buf.length) {
    const r = readSync(fd, buf, got, buf.length - got, from + got);
    if (r === 0) break;
    got += r;
  }
  // The lines above, nearest first (the first one read may be cut: it is used only as the line
  // before another, and not at all in a first read that stops short of MAX_UP_BYTES).
  const text = buf.subarray(0, got).toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const short = from > 0 && bytes < MAX_UP_BYTES;
  const firstWhole = from === 0 ? 0 : 1;
  for (let k = lines.length - 1, up = 1; k >= firstWhole && up <= MAX_UP; k--, up++) {
    if (short && k <= 1) return TOP;
    const raw = lines[k]!;
    if (raw.length > MAX_HEADER) continue;
    const t = cleanLine(raw);
    const ind = indentOf(t);
    if (ind < 0) continue;
    const n = line.n - up;
    if (indent > 0) {
      if (ind < indent && !FIELD.test(t.trimStart())) return { n, text: t };
      continue;
    }
    // The first line of the output opens a block only by its shape (else every plain log would
    // show its first line).
    const afterBlank = k > 0 && indentOf(cleanLine(lines[k - 1]!)) < 0;
    if (opensBlock(t, afterBlank)) return { n, text: t };
  }
  return short ? TOP : undefined;
}
