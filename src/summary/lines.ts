/**
 * The lines the renderer holds whole (the head and tail windows, long lines by their edges and the
 * lines after them) and
 * how a line is cut to a width, keeping its start and its end.
 */
import { formatCount } from '../format.js';
import type { Shield } from '../shield.js';
import { CHAIN_LINES } from '../wrapped-token.js';
import { cleanLines } from './clean.js';
import type { Collected } from './collected.js';
import { errorWordAt } from './salience.js';

/** Cuts a line to at most `cap` characters, keeping its start and end. */
export function cutLine(text: string, cap: number): string {
  return text.length <= cap ? text : cutEdges(text, text, text.length, cap);
}

/**
 * Cuts a line to at most `cap` characters around `at` (its first error word) when the usual cut
 * would lose it: the start, the part that says what went wrong (a log's JSON line puts its
 * error deep inside), and the end (where a record's statement or result closes it).
 */
export function cutAround(text: string, cap: number, at: number): string {
  const note = (n: number) => `…[${formatCount(n)} chars omitted]…`;
  const room = cap - 3 * note(text.length).length;
  const headChars = Math.floor(room * 0.35);
  // The usual cut keeps the first 60%: enough when the word and the message after it are in it.
  if (
    text.length <= cap ||
    at < 0 ||
    at + AFTER < Math.ceil((cap - note(text.length).length) * 0.6) ||
    room < 60
  )
    return cutLine(text, cap);
  const from = Math.max(headChars, at - 20);
  const to = Math.min(text.length, from + Math.floor(room * 0.5));
  const first = safeSlice(text, 0, headChars);
  const window = safeSlice(text, from, to);
  const endChars = Math.min(text.length - to, room - first.length - window.length);
  const last = safeSlice(text, text.length - endChars, text.length);
  const gap = text.length - to - last.length;
  const end = gap > 0 ? `${note(gap)}${last}` : last;
  return `${first}${note(from - first.length)}${window}${end}`;
}

/** The characters after an error word that say what went wrong. */
const AFTER = 100;

/** Shows the start of `start` and the end of `end` of a line `total` characters long. */
function cutEdges(start: string, end: string, total: number, cap: number): string {
  const note = (n: number) => `…[${formatCount(n)} chars omitted]…`;
  const room = Math.max(8, cap - note(total).length);
  const headChars = Math.ceil(room * 0.6);
  const first = safeSlice(start, 0, headChars);
  const last = safeSlice(end, end.length - (room - headChars), end.length);
  return `${first}${note(Math.max(0, total - first.length - last.length))}${last}`;
}

function safeSlice(text: string, from: number, to: number): string {
  let a = Math.max(0, from);
  let b = Math.min(text.length, to);
  if (a > 0 && isLow(text.charCodeAt(a))) a++;
  if (b < text.length && isLow(text.charCodeAt(b))) b--;
  return text.slice(a, Math.max(a, b));
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A line of the head or tail window: how to cut it to a width. */
export interface PoolLine {
  line: number;
  cut: (width: number) => string;
}

/** The lines held whole (head and tail windows, long lines by their edges), by line number. */
export function knownLines(c: Collected, shield: Shield): Map<number, PoolLine> {
  const known = new Map<number, PoolLine>();
  const headText = c.head.toString('utf8');
  const headLines = cleanLines(headText);
  const endsClean = c.complete || headText.endsWith('\n');
  // A line longer than the width shows the part that says what went wrong (see cutAround): a
  // JSON log's record puts its level and message deep inside.
  const whole = (line: number, text: string): PoolLine => ({
    line,
    cut: (w) => (text.length <= w ? text : cutAround(text, w, errorWordAt(text))),
  });
  // A line's neighbours, where held, for a secret cut over two lines (see shield.ts).
  const tail = new Map(c.tail.map((t) => [t.line, t.text]));
  const headAt = (n: number) =>
    n < headLines.length || (n === headLines.length && endsClean) ? headLines[n - 1] : undefined;
  // The lines after one, from the head and the tail, as far as they are held in a row.
  const afterOf = (n: number) => {
    const out: string[] = [];
    for (let k = n + 1; k <= n + CHAIN_LINES; k++) {
      const t = tail.get(k) ?? headAt(k);
      if (t === undefined) break;
      out.push(t);
    }
    return out.length > 0 ? out.join('\n') : undefined;
  };
  headLines.forEach((text, i) => {
    const after = () => afterOf(i + 1);
    if (i < headLines.length - 1 || endsClean) known.set(i + 1, whole(i + 1, shield(i + 1, text, { after })));
  });
  for (const t of c.tail) {
    const around = {
      before: () => tail.get(t.line - 1) ?? headAt(t.line - 1),
      after: () => afterOf(t.line),
    };
    known.set(t.line, whole(t.line, shield(t.line, t.text, around)));
  }
  for (const l of c.longLines.values()) {
    const [start, end] = [shield(l.line, l.start), shield(l.line, l.end)];
    known.set(l.line, { line: l.line, cut: (width) => cutEdges(start, end, l.chars, width) });
    const after = l.after ?? [];
    after.forEach((a, i) => {
      const around = { before: () => after[i - 1]?.text, after: () => after[i + 1]?.text };
      if (!known.has(a.line)) known.set(a.line, whole(a.line, shield(a.line, a.text, around)));
    });
  }
  return known;
}
