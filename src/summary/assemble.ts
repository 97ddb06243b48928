/**
 * The chosen lines in line order, with ctxwrap's markers: a gap marker for every run of lines not
 * shown, line numbers where the reader cannot count them, `+` for a line new since the last run.
 */
import { formatCount } from '../format.js';
import type { Role } from './render.js';

export interface Entry {
  line: number;
  /** For a marker standing for several lines: the first of them (`line` is the last). */
  from?: number;
  text: string;
  role: Role;
  /** New since the previous run: marked `+` before its line number. */
  isNew?: boolean;
}

/** A set of lines that is shown whole or not at all, and what it is worth. */
export interface Unit {
  entries: Entry[];
  score: number;
  /** The line that decides its place among equals. */
  line: number;
  /** The template its main line belongs to (diminishing returns per template). */
  key: string;
  /** The part of the score that no per-template penalty reduces (new since the last run). */
  bonus: number;
}

export const cost = (text: string) => text.length + 1;
const PREFIX_COST = 7;
/** What a line costs printed, with the line-number prefix it may get. */
export const entryCost = (e: Entry) => cost(e.text) + (e.role === 'meta' ? 0 : PREFIX_COST);
/** What a gap marker costs, about. */
export const MARKER_COST = 40;

const range = (from: number, to: number) => (from === to ? `${from}` : `${from}-${to}`);
export const gapMarker = (from: number, to: number) =>
  `[ctxwrap: ${formatCount(to - from + 1)} line${to === from ? '' : 's'} omitted, ${range(from, to)}]`;
/** The line that stands for `n` more copies of the line above it (summary and search hits). */
export const repeatMarker = (n: number) => `[ctxwrap: previous line repeated ${formatCount(n)} more times]`;
export const similarMarker = (n: number, from: number, to: number) =>
  `[ctxwrap: ${formatCount(n)} similar line${n === 1 ? '' : 's'} omitted, ${range(from, to)}]`;
/**
 * Appended to the one line shown for a template of `n` lines, `from` to `to`: how many more are
 * like it, and the last of them (the notation the prompt teaches), or the first when it is the
 * last.
 */
export const likeThis = (n: number, from: number, to: number, line: number) =>
  ` [+${formatCount(n - 1)} similar, ${line === to ? `first ${from}` : `last ${to}`}]`;
const GAP = /^\[ctxwrap: [\d,]+ lines? omitted/;
/**
 * A gap between two numbered lines: their numbers say which lines are left out, so one short
 * line says that some are (no output line can start with it: see FORGED in shield.ts).
 */
export const SHORT_GAP = '\u22ee';

export const size = (lines: { text: string }[]) => lines.reduce((n, l) => n + cost(l.text), 0);

/**
 * The chosen units in line order, with a marker for every gap. Lines after the first gap and
 * before the last one carry their line number; the unbroken start and end need none (the markers
 * give the numbers). When a line is new since the last run, every line shown carries its number,
 * the new ones as `+N: `: the mark is then never the output's own `+` (a diff's added line).
 */
export function assemble(units: Unit[], total: number): Entry[] {
  const all = units.flatMap((u) => u.entries);
  const lines = new Set(all.filter((e) => e.role !== 'meta').map((e) => e.line));
  // An empty line is kept only between two lines that are shown (or the start and the end):
  // beside a gap it is a number with nothing after it.
  const keep = (e: Entry) =>
    e.role === 'meta' ||
    e.text.trim() !== '' ||
    ((e.line === 1 || lines.has(e.line - 1)) && (e.line === total || lines.has(e.line + 1)));
  const body = all.filter(keep).sort((a, b) => (a.from ?? a.line) - (b.from ?? b.line) || a.line - b.line);
  const out: Entry[] = [];
  // The gaps made here (a marker a unit brings is its own).
  const made = new Set<Entry>();
  const gap = (from: number, to: number) => {
    const g: Entry = { line: to, from, text: gapMarker(from, to), role: 'meta' };
    made.add(g);
    out.push(g);
  };
  let last = 0;
  for (const e of body) {
    if (e.line <= last) continue;
    const from = e.from ?? e.line;
    if (from > last + 1) gap(last + 1, from - 1);
    out.push(e);
    last = e.line;
  }
  if (last < total) gap(last + 1, total);
  const isGap = (e: Entry) => e.role === 'meta' && GAP.test(e.text);
  const firstGap = out.findIndex(isGap);
  const lastGap = out.findLastIndex(isGap);
  const anyNew = out.some((e) => e.isNew);
  const numbered = (i: number) =>
    out[i] !== undefined &&
    out[i].role !== 'meta' &&
    (anyNew || (firstGap !== -1 && i > firstGap && i < lastGap));
  return out.map((e, i) => {
    if (e.role === 'meta')
      return made.has(e) && numbered(i - 1) && numbered(i + 1) ? { ...e, text: SHORT_GAP } : e;
    return numbered(i) ? { ...e, text: `${e.isNew ? '+' : ''}${e.line}: ${e.text}` } : e;
  });
}

const keyOf = (e: Entry) => e.from ?? e.line;
const before = (a: Entry, b: Entry) => keyOf(a) - keyOf(b) || a.line - b.line;

/**
 * What `size(assemble([...added, unit], total))` is, for units added one by one: spend asks it of
 * every candidate near the end of the room. The added entries are kept in assemble's order (a
 * stable sort: an entry goes after those equal to it), so that a question costs one walk and no
 * text is made but the gap markers'.
 */
export class AssembledSize {
  private readonly sorted: Entry[] = [];
  private readonly lines = new Set<number>();

  constructor(private readonly total: number) {}

  add(unit: Unit): void {
    for (const e of unit.entries) {
      this.sorted.splice(upperBound(this.sorted, e), 0, e);
      if (e.role !== 'meta') this.lines.add(e.line);
    }
  }

  /** The size of the added units and `unit` assembled. */
  with(unit: Unit): number {
    const extra = unit.entries.map((e, i) => ({ e, i })).sort((a, b) => before(a.e, b.e) || a.i - b.i);
    const extraLines = unit.entries.filter((e) => e.role !== 'meta').map((e) => e.line);
    const shown = (l: number) => this.lines.has(l) || extraLines.includes(l);
    const total = this.total;
    const keep = (e: Entry) =>
      e.role === 'meta' ||
      e.text.trim() !== '' ||
      ((e.line === 1 || shown(e.line - 1)) && (e.line === total || shown(e.line + 1)));
    // The walk of assemble, costs only: each line's cost without its number, and where gaps are.
    const costs: number[] = [];
    const numbers: number[] = [];
    // The gaps the walk makes, by index: short between two numbered lines (see SHORT_GAP).
    const made: number[] = [];
    let firstGap = -1;
    let lastGap = -1;
    let anyNew = false;
    let last = 0;
    const gap = (from: number, to: number) => {
      if (firstGap === -1) firstGap = costs.length;
      lastGap = costs.length;
      made.push(costs.length);
      costs.push(gapCost(from, to));
      numbers.push(0);
    };
    const walk = (e: Entry) => {
      if (!keep(e) || e.line <= last) return;
      const from = keyOf(e);
      if (from > last + 1) gap(last + 1, from - 1);
      const meta = e.role === 'meta';
      if (meta && GAP.test(e.text)) {
        if (firstGap === -1) firstGap = costs.length;
        lastGap = costs.length;
      }
      anyNew ||= e.isNew === true;
      costs.push(cost(e.text));
      // What `N: ` (or `+N: `) adds when the line is numbered.
      numbers.push(meta ? 0 : `${e.line}`.length + 2 + (e.isNew ? 1 : 0));
      last = e.line;
    };
    let j = 0;
    for (const e of this.sorted) {
      while (j < extra.length && before((extra[j] as { e: Entry }).e, e) < 0)
        walk((extra[j++] as { e: Entry }).e);
      walk(e);
    }
    while (j < extra.length) walk((extra[j++] as { e: Entry }).e);
    if (last < total) gap(last + 1, total);
    const numbered = (i: number) =>
      (numbers[i] ?? 0) > 0 && (anyNew || (firstGap !== -1 && i > firstGap && i < lastGap));
    let sum = 0;
    for (let i = 0; i < costs.length; i++)
      sum += (costs[i] as number) + (numbered(i) ? (numbers[i] as number) : 0);
    for (const i of made)
      if (numbered(i - 1) && numbered(i + 1)) sum += cost(SHORT_GAP) - (costs[i] as number);
    return sum;
  }
}

const digits = (n: number) => (n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : `${n}`.length);
/** cost(gapMarker(from, to)), counted: `[ctxwrap: ` N (with its commas) ` line(s) omitted, ` range `]`. */
function gapCost(from: number, to: number): number {
  const n = digits(to - from + 1);
  const count = n + Math.floor((n - 1) / 3);
  const range = from === to ? digits(from) : digits(from) + 1 + digits(to);
  return 10 + count + (to === from ? 5 : 6) + 10 + range + 1 + 1;
}

/** The index after every entry of `sorted` that does not come after `e`. */
function upperBound(sorted: Entry[], e: Entry): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(sorted[mid] as Entry, e) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
