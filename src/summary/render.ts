/**
 * The second half of the summary: from what the collector gathered and the run's facts to the
 * exact text the agent sees, never longer than the budget. Pure and deterministic.
 */
import { formatBytes, formatCount, formatDuration, formatTokens } from '../format.js';
import { inertLine, type Shield, shieldFor } from '../shield.js';
import { estimateTokens } from '../tokens.js';
import { cleanLines, showControls } from './clean.js';
import type { Candidate, Collected, NumberedLine } from './collector.js';
import { scoreLine, shape, template } from './salience.js';

/** Facts about the run that the summary states. */
export interface RunFacts {
  id: string;
  /** Path of the stored output file. */
  path: string;
  /** The exit status ctxwrap itself returns for this run; null while unknown (incomplete run). */
  exitCode: number | null;
  durationMs: number;
  /** Why the run ended as it did, when that is not a plain exit: "timed out after 5s". */
  status?: string;
  /** True when the output came from stdin rather than from a command ctxwrap ran. */
  fromStdin?: boolean;
  /** The result this run is compared with. */
  previousId?: string;
}

export interface RenderOptions {
  /** Most characters the summary may print (default 2000). */
  budget?: number;
  /** Outputs whose cleaned text is at most this long are printed whole (default: the budget). */
  inlineThreshold?: number;
  /** Weight of the end of the output against its start in choosing lines (default 0.7). */
  tailRatio?: number;
  /** Mask well-known credential formats in what is printed (default true). */
  redact?: boolean;
}

/** What a printed line is, so a terminal can colour it. */
export type Role = 'meta' | 'output' | 'salient' | 'new';

export interface SummaryLine {
  role: Role;
  text: string;
  /** For lines taken from the output: their 1-based line number in the stored file. */
  line?: number;
}

export interface Summary {
  kind: 'verbatim' | 'binary' | 'summary';
  lines: SummaryLine[];
  /** False when the last line is printed without a newline (an output that had none). */
  finalNewline?: boolean;
}

export const DEFAULT_BUDGET = 2000;
export const DEFAULT_TAIL_RATIO = 0.7;
const MIN_BUDGET = 200;

/**
 * Marks output lines that could pass for ctxwrap's own, so that they cannot: behind spaces,
 * invisible characters and look-alikes too (see inertLine in shield.ts).
 */
export function inert(text: string): string {
  return inertLine(text);
}

function meta(text: string): SummaryLine {
  return { role: 'meta', text };
}

function statusPart(facts: RunFacts): string {
  if (facts.exitCode === null) return facts.status ? showControls(facts.status) : 'incomplete';
  const exit = `exit ${facts.exitCode}`;
  return facts.status ? `${exit} (${showControls(facts.status)})` : exit;
}

/** Cuts a line to at most `cap` characters, keeping its start and end. */
export function cutLine(text: string, cap: number): string {
  return text.length <= cap ? text : cutEdges(text, text, text.length, cap);
}

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
interface PoolLine {
  line: number;
  cut: (width: number) => string;
}

/** The lines held whole (head and tail windows, long lines by their edges), by line number. */
function knownLines(c: Collected, shield: Shield): Map<number, PoolLine> {
  const known = new Map<number, PoolLine>();
  const headText = c.head.toString('utf8');
  const headLines = cleanLines(headText);
  const endsClean = c.complete || headText.endsWith('\n');
  const whole = (line: number, text: string): PoolLine => ({ line, cut: (w) => cutLine(text, w) });
  headLines.forEach((text, i) => {
    const last = i === headLines.length - 1;
    if (!last || endsClean) known.set(i + 1, whole(i + 1, shield(i + 1, text)));
  });
  for (const t of c.tail) known.set(t.line, whole(t.line, shield(t.line, t.text)));
  for (const l of c.longLines.values()) {
    const [start, end] = [shield(l.line, l.start), shield(l.line, l.end)];
    known.set(l.line, { line: l.line, cut: (width) => cutEdges(start, end, l.chars, width) });
  }
  return known;
}

const cost = (text: string) => text.length + 1;
const gapMarker = (from: number, to: number) =>
  `[ctxwrap: ${formatCount(to - from + 1)} line${to === from ? '' : 's'} omitted, ${from === to ? from : `${from}-${to}`}]`;
/** The line that stands for `n` more copies of the line above it (summary and search hits). */
export const repeatMarker = (n: number) => `[ctxwrap: previous line repeated ${formatCount(n)} more times]`;
const similarMarker = (n: number, from: number, to: number) =>
  `[ctxwrap: ${formatCount(n)} similar line${n === 1 ? '' : 's'} omitted, ${from === to ? from : `${from}-${to}`}]`;
/** What a gap marker costs, about. */
const MARKER_COST = 40;
const GAP = /^\[ctxwrap: [\d,]+ lines? omitted/;

interface Entry {
  line: number;
  /** For a marker standing for several lines: the first of them (`line` is the last). */
  from?: number;
  text: string;
  role: Role;
  /** New since the previous run: marked `+`. */
  isNew?: boolean;
}

/** What a line costs printed, with the line-number prefix it may get. */
const entryCost = (e: Entry) => cost(e.text) + (e.role === 'meta' ? 0 : PREFIX_COST);
const PREFIX_COST = 7;

/** A set of lines that is shown whole or not at all, and what it is worth. */
interface Unit {
  entries: Entry[];
  score: number;
  /** The line that decides its place among equals. */
  line: number;
}

/** What a held line scores on its own (a weak error counts less when the run succeeded). */
function scoreOf(text: string, success: boolean): number {
  const s = scoreLine(text);
  return s.weak && success ? s.score * 0.4 : s.score;
}

/** How much a line's template says: a template seen once says more than its 447th instance. */
function rarity(count: number): number {
  return count <= 1 ? 3 : count <= 3 ? 2 : count <= 20 ? 0.5 : -1;
}

const NEW_BONUS = 20;

/** Weights of the position signal: the end matters most, then the start. */
function position(line: number, total: number, tailRatio: number): number {
  const fromEnd = total - line;
  const fromStart = line - 1;
  return 11.4 * tailRatio * 0.85 ** fromEnd + 20 * (1 - tailRatio) * 0.85 ** fromStart;
}

/**
 * Chooses what the agent sees, with one budget: every held line (head, tail, salient and new
 * lines of the middle) competes by what it is worth (salience, how rare its template is, whether
 * it is new since the last run, its position), runs of one template fold into first and last,
 * and the best that fit are shown in line order with markers for the gaps.
 */
function select(
  c: Collected,
  room: number,
  cap: number,
  shield: Shield,
  options: { tailRatio: number; success: boolean },
): Entry[] {
  const known = knownLines(c, shield);
  const byLine = new Map<number, Candidate>();
  for (const cand of c.candidates) byLine.set(cand.line, cand);
  const units: Unit[] = [];
  const worth = (cand: Candidate) => {
    const salience = cand.weak && options.success ? cand.score * 0.4 : cand.score;
    const rare = cand.score > 0 ? rarity(cand.count) * (cand.weak ? 0.5 : 1) : 0;
    return salience + rare + (cand.isNew ? NEW_BONUS : 0);
  };

  // The held lines, as units; runs of one template (or of plain lines of one shape) fold into
  // their first and last line.
  const numbers = [...known.keys()].sort((a, b) => a - b);
  interface Held {
    text: string;
    shape: string;
    /** The first three words, numbers masked. */
    shape3: string;
    template: string;
    salience: number;
    isNew: boolean;
    /** The salient or new line of this number, shown as a unit of its own with its context. */
    own: boolean;
  }
  const groupCount = new Map<string, number>();
  for (const cand of c.candidates)
    groupCount.set(cand.template, Math.max(groupCount.get(cand.template) ?? 0, cand.count));
  const held = new Map<number, Held>();
  for (const n of numbers) {
    const text = (known.get(n) as PoolLine).cut(cap);
    const cand = byLine.get(n);
    const tpl = cand?.template ?? template(text, true);
    const sal = cand ? worth(cand) - (cand.isNew ? NEW_BONUS : 0) : scoreOf(text, options.success);
    const count = groupCount.get(tpl) ?? 1;
    held.set(n, {
      text,
      shape: shape(text),
      shape3: shape(text, 3),
      template: tpl,
      // Another instance of a template the middle shows already says little.
      salience: cand || sal <= 0 ? sal : sal + rarity(count) - (count > 1 ? 2 : 0),
      isNew: c.newLines.has(n) || cand?.isNew === true,
      own: cand !== undefined && (cand.score > 0 || cand.isNew),
    });
  }
  const at = (k: number) => held.get(numbers[k] as number) as Held;
  // Lines near the ends are worth showing one by one: they never fold.
  const foldable = (k: number) => {
    const h = at(k);
    return (
      !h.own && !h.isNew && h.text !== '' && position(numbers[k] as number, c.lines, options.tailRatio) <= 1
    );
  };
  const alike = (a: Held, b: Held) =>
    a.text === b.text ||
    (a.salience > 0 ? template(a.text) === template(b.text) : b.salience <= 0 && a.shape === b.shape);
  /** Salient lines whose group is one run of identical held lines: that run shows them. */
  const inRun = new Set<Candidate>();
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i] as number;
    const h = at(i);
    let j = i;
    // Identical lines fold anywhere; lines alike only away from the ends.
    const same = (k: number) => !at(k).own && !at(k).isNew && at(k).text === h.text;
    while (!h.isNew && j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1 && same(j + 1))
      j++;
    if (j - i < 2) j = i;
    if (h.own) {
      // A salient line repeated (`retrying: connection refused` 400 times) is one line and a
      // repeat count, not a line with "+399 similar" and the same run counted again beside it.
      const cand = byLine.get(n);
      const whole =
        cand !== undefined &&
        j > i &&
        cand.count === j - i + 1 &&
        cand.lastLine === numbers[j] &&
        !cand.owner &&
        cand.attached.length === 0;
      if (!whole) continue;
      inRun.add(cand);
      h.salience = Math.max(h.salience, worth(cand));
    }
    if (j === i && foldable(i)) {
      while (
        j + 1 < numbers.length &&
        numbers[j + 1] === (numbers[j] as number) + 1 &&
        foldable(j + 1) &&
        alike(h, at(j + 1))
      )
        j++;
      // In a run where most lines share their third word too, a line that does not says
      // something (`[ 77%] Linking C shared library` among `[ 76%] Building C object`): the run
      // stops before it.
      const third = new Map<string, number>();
      for (let k = i; k <= j; k++) third.set(at(k).shape3, (third.get(at(k).shape3) ?? 0) + 1);
      const top = Math.max(...third.values());
      if (j - i >= 3 && top * 2 >= j - i + 1)
        for (let k = i + 1; k <= j; k++)
          if ((third.get(at(k).shape3) ?? 0) <= 2) {
            j = k - 1;
            at(k).salience += 1.5;
            break;
          }
    }
    const last = numbers[j] as number;
    const best = Math.max(...numbers.slice(i, j + 1).map((k) => (held.get(k) as Held).salience), 0);
    const pos = Math.max(position(n, c.lines, options.tailRatio), position(last, c.lines, options.tailRatio));
    if (j - i >= 2 && numbers.slice(i, j + 1).every((k) => (held.get(k) as Held).text === h.text)) {
      units.push({
        line: last,
        score: pos + best,
        entries: [
          { line: n, text: inert(h.text), role: best > 0 ? 'salient' : 'output' },
          {
            line: last,
            from: n + 1,
            text: repeatMarker(j - i),
            role: 'meta',
          },
        ],
      });
      i = j;
      continue;
    }
    if (j - i >= 3) {
      units.push({
        line: last,
        score: pos + best,
        entries: [
          { line: n, text: inert(h.text), role: best > 0 ? 'salient' : 'output' },
          { line: last - 1, from: n + 1, text: similarMarker(j - i - 1, n + 1, last - 1), role: 'meta' },
          { line: last, text: inert(at(j).text), role: best > 0 ? 'salient' : 'output' },
        ],
      });
      i = j;
      continue;
    }
    const role: Role = h.isNew ? 'new' : h.salience > 0 ? 'salient' : 'output';
    // An empty line away from the ends says nothing.
    if (h.text.trim() === '' && !h.isNew && position(n, c.lines, options.tailRatio) <= 1) continue;
    units.push({
      line: n,
      score: position(n, c.lines, options.tailRatio) + h.salience + (h.isNew ? NEW_BONUS : 0),
      entries: [{ line: n, text: inert(h.text), role, ...(h.isNew ? { isNew: true } : {}) }],
    });
  }

  // Salient and new lines of the middle, with their context.
  for (const cand of c.candidates) {
    if (inRun.has(cand)) continue;
    const line = (l: NumberedLine, role: Role, isNew = false): Entry => ({
      line: l.line,
      text: inert(held.get(l.line)?.text ?? cutLine(shield(l.line, l.text), cap)),
      role,
      ...(isNew ? { isNew } : {}),
    });
    const entries: Entry[] = [];
    if (cand.owner) entries.push(line(cand.owner, 'salient'));
    const main = line(cand, cand.isNew ? 'new' : 'salient', cand.isNew);
    if (cand.count > 1) main.text += ` [+${formatCount(cand.count - 1)} similar, last ${cand.lastLine}]`;
    entries.push(main);
    for (const a of cand.attached) entries.push(line(a, 'salient'));
    // Among equals, the one that costs less: context is worth less than the line it explains.
    const length = entries.reduce((n, e) => n + entryCost(e), 0);
    units.push({
      line: cand.line,
      score: worth(cand) + position(cand.line, c.lines, options.tailRatio) - length / 400,
      entries,
    });
  }

  units.sort((a, b) => b.score - a.score || b.line - a.line);
  const chosen: Unit[] = [];
  const shown = new Set<number>();
  let used = 0;
  // An empty line is shown only beside a line that is shown (or the header, or the end): alone
  // it is a number and a marker.
  const blank = (u: Unit) => u.entries.every((e) => e.role !== 'meta' && e.text.trim() === '');
  const beside = (l: number) => l === 1 || l === c.lines || shown.has(l - 1) || shown.has(l + 1);
  for (const unit of units) {
    const fresh = unit.entries.filter((e) => !shown.has(e.line));
    if (fresh.length === 0) continue;
    if (blank(unit) && !fresh.some((e) => beside(e.line))) continue;
    const first = fresh[0] as Entry;
    const adjacent = shown.has((first.from ?? first.line) - 1);
    const need = fresh.reduce((n, e) => n + entryCost(e), 0) + (adjacent ? 0 : MARKER_COST);
    const candidate = { ...unit, entries: fresh };
    // Near the limit the estimate is not enough: measure the text it would give.
    if (used + need > room - 2 * MARKER_COST && size(assemble([...chosen, candidate], c.lines)) > room)
      continue;
    chosen.push(candidate);
    for (const e of fresh) for (let l = e.from ?? e.line; l <= e.line; l++) shown.add(l);
    used += need;
  }
  // Markers were estimated: give back the least worth until the exact text fits.
  let entries = assemble(chosen, c.lines);
  while (size(entries) > room && chosen.length > 0) {
    chosen.pop();
    entries = assemble(chosen, c.lines);
  }
  return entries;
}

/**
 * The chosen units in line order, with a marker for every gap. Lines after the first gap and
 * before the last one carry their line number (`+` before it for a new line); the unbroken start
 * and end need none (the markers give the numbers). A new line there is marked `+` alone.
 */
function assemble(units: Unit[], total: number): Entry[] {
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
  let last = 0;
  for (const e of body) {
    if (e.line <= last) continue;
    const from = e.from ?? e.line;
    if (from > last + 1)
      out.push({ line: from - 1, from: last + 1, text: gapMarker(last + 1, from - 1), role: 'meta' });
    out.push(e);
    last = e.line;
  }
  if (last < total) out.push({ line: total, from: last + 1, text: gapMarker(last + 1, total), role: 'meta' });
  const isGap = (e: Entry) => e.role === 'meta' && GAP.test(e.text);
  const firstGap = out.findIndex(isGap);
  const lastGap = out.findLastIndex(isGap);
  return out.map((e, i) => {
    if (e.role === 'meta') return e;
    const numbered = firstGap !== -1 && i > firstGap && i < lastGap;
    const mark = e.isNew ? '+' : '';
    return numbered
      ? { ...e, text: `${mark}${e.line}: ${e.text}` }
      : mark
        ? { ...e, text: `${mark}${e.text}` }
        : e;
  });
}

const size = (lines: { text: string }[]) => lines.reduce((n, l) => n + cost(l.text), 0);

/** The header line, shortened until it leaves room for the output under a small budget. */
function headerLine(c: Collected, facts: RunFacts, budget: number): string {
  const lines = `${formatCount(c.lines)} line${c.lines === 1 ? '' : 's'}`;
  const path = `full output: ${showControls(facts.path)}`;
  const variants = [
    [
      statusPart(facts),
      lines,
      formatBytes(c.bytes),
      `~${formatTokens(estimateTokens(c.bytes))} tokens`,
      formatDuration(facts.durationMs),
      path,
    ],
    [statusPart(facts), lines, formatBytes(c.bytes), formatDuration(facts.durationMs), path],
    [statusPart(facts), lines, formatBytes(c.bytes), `ctxwrap read ${facts.id}`],
    [statusPart(facts), lines],
  ];
  for (const parts of variants) {
    const text = `[ctxwrap ${facts.id}] ${parts.join(' · ')}`;
    if (text.length <= budget * 0.45) return text;
  }
  return cutLine(`[ctxwrap ${facts.id}] ${statusPart(facts)}`, Math.floor(budget * 0.45));
}

/** Builds the summary model of a collected output. */
export function buildSummary(c: Collected, facts: RunFacts, options: RenderOptions = {}): Summary {
  const budget = Math.max(MIN_BUDGET, Math.floor(options.budget ?? DEFAULT_BUDGET));
  const inline = options.inlineThreshold ?? budget;
  const tailRatio = Math.min(1, Math.max(0, options.tailRatio ?? DEFAULT_TAIL_RATIO));

  const shield = shieldFor(c.keyRanges, options.redact ?? true);
  if (c.binary) {
    const type = c.binaryType ? `${c.binaryType}, ` : '';
    const full = `[ctxwrap ${facts.id}] ${statusPart(facts)} · binary output (${type}${formatBytes(c.bytes)}) not shown · ${formatDuration(facts.durationMs)} · full output: ${showControls(facts.path)}`;
    const short = `[ctxwrap ${facts.id}] ${statusPart(facts)} · binary output (${formatBytes(c.bytes)}) not shown`;
    return { kind: 'binary', lines: [meta(full.length < budget ? full : cutLine(short, budget - 1))] };
  }

  if (c.complete) {
    const lines = cleanLines(c.head.toString('utf8'));
    let stats: SummaryLine | undefined;
    if (facts.exitCode !== 0 || facts.fromStdin || facts.status) {
      const what = c.bytes === 0 ? 'no output' : `${formatCount(c.lines)} line${c.lines === 1 ? '' : 's'}`;
      stats = meta(
        `[ctxwrap ${facts.id}] ${statusPart(facts)} · ${what} · ${formatDuration(facts.durationMs)}`,
      );
    }
    const out: SummaryLine[] = lines.map((text, i) => ({
      role: 'output',
      text: inert(shield(i + 1, text)),
      line: i + 1,
    }));
    if (stats) out.push(stats);
    if (size(out) <= inline) {
      const finalNewline = stats !== undefined || c.bytes === 0 || c.head[c.head.length - 1] === 10;
      return { kind: 'verbatim', lines: out, ...(finalNewline ? {} : { finalNewline }) };
    }
  }

  const cap = Math.max(80, Math.floor(budget * 0.16));
  const header: SummaryLine[] = [meta(headerLine(c, facts, budget))];
  if (facts.previousId && c.compared) {
    const vs = c.compared.related
      ? `[ctxwrap: vs ${facts.previousId}, the previous run of this command here: ${formatCount(c.compared.fresh)} new line${c.compared.fresh === 1 ? '' : 's'} (marked +), ${formatCount(c.compared.gone)} salient gone]`
      : `[ctxwrap: the previous run ${facts.previousId} has too little in common to compare with]`;
    if (size(header) + cost(vs) <= budget * 0.6) header.push(meta(vs));
  }
  const room = budget - size(header);
  const entries = select(c, room, Math.min(cap, Math.max(20, room - 2)), shield, {
    tailRatio,
    success: facts.exitCode === 0,
  });
  const lines: SummaryLine[] = [...header];
  for (const e of entries)
    lines.push(e.role === 'meta' ? meta(e.text) : { role: e.role, text: e.text, line: e.line });
  return { kind: 'summary', lines };
}

/** Colouring of a summary's lines; the identity when printing for an agent. */
export interface Paint {
  meta(text: string): string;
  salient(text: string): string;
  added(text: string): string;
}

/** The summary as text: one line each, newline-terminated. */
export function renderSummary(summary: Summary, paint?: Paint): string {
  if (summary.lines.length === 0) return '';
  const text = summary.lines.map((l) => {
    if (!paint) return l.text;
    if (l.role === 'meta') return paint.meta(l.text);
    if (l.role === 'salient') return paint.salient(l.text);
    if (l.role === 'new') return paint.added(l.text);
    return l.text;
  });
  return `${text.join('\n')}${summary.finalNewline === false ? '' : '\n'}`;
}
