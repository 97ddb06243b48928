/**
 * The second half of the summary: from what the collector gathered and the run's facts to the
 * exact text the agent sees, never longer than the budget. Pure and deterministic.
 */
import { formatBytes, formatCount, formatDuration, formatTokens } from '../format.js';
import { inertLine, type Shield, shieldFor } from '../shield.js';
import { estimateTokens } from '../tokens.js';
import { cleanLines, showControls } from './clean.js';
import type { Candidate, Collected, NumberedLine } from './collector.js';
import { dedupeKey } from './salience.js';

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
  /** Share of the head+tail room given to the tail (default 0.7). */
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

function headerLine(c: Collected, facts: RunFacts): string {
  const parts = [
    statusPart(facts),
    `${formatCount(c.lines)} lines`,
    formatBytes(c.bytes),
    `~${formatTokens(estimateTokens(c.bytes))} tokens`,
    formatDuration(facts.durationMs),
    `full output: ${showControls(facts.path)}`,
  ];
  return `[ctxwrap ${facts.id}] ${parts.join(' · ')}`;
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

/** A head or tail line: its text cut to the line cap, and how to cut it narrower. */
interface PoolLine extends NumberedLine {
  cut: (width: number) => string;
}

interface Pools {
  head: PoolLine[];
  tail: PoolLine[];
}

function pools(c: Collected, cap: number, shield: Shield): Pools {
  /** Each known line as a function that cuts its whole text (or its held edges) to a width. */
  const known = new Map<number, (width: number) => string>();
  const headText = c.head.toString('utf8');
  const headLines = cleanLines(headText);
  const endsClean = c.complete || headText.endsWith('\n');
  const whole = (text: string) => (width: number) => cutLine(text, width);
  headLines.forEach((text, i) => {
    const last = i === headLines.length - 1;
    if (!last || endsClean) known.set(i + 1, whole(shield(i + 1, text)));
  });
  for (const t of c.tail) known.set(t.line, whole(shield(t.line, t.text)));
  for (const l of c.longLines.values()) {
    const [start, end] = [shield(l.line, l.start), shield(l.line, l.end)];
    known.set(l.line, (width) => cutEdges(start, end, l.chars, width));
  }
  const lineAt = (n: number): PoolLine => {
    const cut = known.get(n) as (width: number) => string;
    return { line: n, text: cut(cap), cut };
  };
  const head: PoolLine[] = [];
  for (let n = 1; known.has(n); n++) head.push(lineAt(n));
  const tail: PoolLine[] = [];
  for (let n = c.lines; n >= 1 && known.has(n); n--) tail.push(lineAt(n));
  return { head, tail };
}

const cost = (text: string) => text.length + 1;
const gapMarker = (from: number, to: number) =>
  `[ctxwrap: ${formatCount(to - from + 1)} line${to === from ? '' : 's'} omitted, ${from === to ? from : `${from}-${to}`}]`;
const MARKER_COST = 44;

function rank(c: Candidate): number {
  return c.score + (c.isNew ? 6 : 0) + (c.count === 1 ? 1 : 0);
}

interface Entry {
  line: number;
  /** For a marker standing for several lines: the first of them (`line` is the last). */
  from?: number;
  text: string;
  role: Role;
}

function candidateEntries(c: Candidate, cap: number, shield: Shield): Entry[] {
  const role: Role = c.isNew ? 'new' : 'salient';
  const num = (l: number) => `${c.isNew && l === c.line ? '+' : ''}${l}: `;
  const out: Entry[] = [];
  if (c.owner)
    out.push({
      line: c.owner.line,
      text: `${num(c.owner.line)}${inert(cutLine(shield(c.owner.line, c.owner.text), cap))}`,
      role: 'salient',
    });
  const more = c.count > 1 ? ` [+${formatCount(c.count - 1)} similar, last ${c.lastLine}]` : '';
  out.push({
    line: c.line,
    text: `${num(c.line)}${inert(cutLine(shield(c.line, c.text), cap))}${more}`,
    role,
  });
  for (const a of c.attached)
    out.push({
      line: a.line,
      text: `${num(a.line)}${inert(cutLine(shield(a.line, a.text), cap))}`,
      role: 'salient',
    });
  return out;
}

/**
 * Takes lines from a pool while they fit, folding runs of identical lines into one with a count.
 * A backward pool (the tail, taken from the end) comes out in reverse order.
 */
function take(pool: PoolLine[], room: number, stopAt: (line: number) => boolean, backward = false) {
  const entries: Entry[] = [];
  let used = 0;
  const at = (k: number) => pool[k] as PoolLine;
  const runEnd = (i: number, same: (a: NumberedLine, b: NumberedLine) => boolean) => {
    let j = i;
    while (j + 1 < pool.length && same(at(j + 1), at(i)) && !stopAt(at(j + 1).line)) j++;
    return j;
  };
  for (let i = 0; i < pool.length; i++) {
    const cur = at(i);
    if (stopAt(cur.line)) break;
    const text = inert(cur.text);
    let run: Entry[];
    let j = runEnd(i, (a, b) => a.text === b.text);
    // Two equal lines cost less shown than folded; three or more fold into one and a count.
    if (j > i + 1) {
      // Identical lines: the line once, and how many times more it came.
      const [first, last] = [Math.min(cur.line, at(j).line), Math.max(cur.line, at(j).line)];
      run = [
        { line: first, text, role: 'output' },
        {
          line: last,
          from: first + 1,
          text: `[ctxwrap: previous line repeated ${formatCount(j - i)} more times]`,
          role: 'meta',
        },
      ];
    } else {
      j = runEnd(i, (a, b) => a.text !== '' && dedupeKey(a.text) === dedupeKey(b.text));
      if (j - i + 1 >= SIMILAR_RUN) {
        // Lines alike but for numbers and names: the first and the last of the run stand for it.
        const ends = [cur, at(j)].sort((a, b) => a.line - b.line) as [PoolLine, PoolLine];
        run = [
          { line: ends[0].line, text: inert(ends[0].text), role: 'output' },
          {
            line: ends[1].line - 1,
            from: ends[0].line + 1,
            text: similarMarker(j - i - 1, ends[0].line + 1, ends[1].line - 1),
            role: 'meta',
          },
          { line: ends[1].line, text: inert(ends[1].text), role: 'output' },
        ];
      } else {
        j = i;
        run = [{ line: cur.line, text, role: 'output' }];
      }
    }
    let need = run.reduce((n, e) => n + cost(e.text), 0);
    if (used + need > room) {
      // The first line of the head is worth a cut version rather than nothing.
      const fit = room - used - 1;
      if (entries.length > 0 || run.length !== 1 || fit < 60) break;
      // Cut from the whole line, not from its already cut text; the escape may take one more.
      const text = inert(cur.cut(fit)).length <= fit ? inert(cur.cut(fit)) : inert(cur.cut(fit - 1));
      run = [{ ...(run[0] as Entry), text }];
      need = fit + 1;
    }
    entries.push(...(backward ? run.reverse() : run));
    used += need;
    i = j;
  }
  return { entries, used };
}

/** A run of at least this many lines alike but for numbers is shown by its first and last. */
const SIMILAR_RUN = 5;
const similarMarker = (n: number, from: number, to: number) =>
  `[ctxwrap: ${formatCount(n)} similar line${n === 1 ? '' : 's'} omitted, ${from === to ? from : `${from}-${to}`}]`;

function assemble(
  header: SummaryLine[],
  head: Entry[],
  middle: Entry[],
  tail: Entry[],
  total: number,
): SummaryLine[] {
  const out = [...header];
  const body = [...head, ...middle.sort((a, b) => a.line - b.line), ...tail];
  let last = 0;
  for (const e of body) {
    if ((e.from ?? e.line) > last + 1) out.push(meta(gapMarker(last + 1, (e.from ?? e.line) - 1)));
    out.push(e.role === 'meta' ? meta(e.text) : { role: e.role, text: e.text, line: e.line });
    last = Math.max(last, e.line);
  }
  if (last < total) out.push(meta(gapMarker(last + 1, total)));
  return out;
}

const size = (lines: SummaryLine[]) => lines.reduce((n, l) => n + cost(l.text), 0);

/** Builds the summary model of a collected output. */
export function buildSummary(c: Collected, facts: RunFacts, options: RenderOptions = {}): Summary {
  const budget = Math.max(MIN_BUDGET, Math.floor(options.budget ?? DEFAULT_BUDGET));
  const inline = options.inlineThreshold ?? budget;
  const tailRatio = Math.min(1, Math.max(0, options.tailRatio ?? DEFAULT_TAIL_RATIO));

  const shield = shieldFor(c.keyRanges, options.redact ?? true);
  if (c.binary) {
    const type = c.binaryType ? `${c.binaryType}, ` : '';
    return {
      kind: 'binary',
      lines: [
        meta(
          `[ctxwrap ${facts.id}] ${statusPart(facts)} · binary output (${type}${formatBytes(c.bytes)}) not shown · ${formatDuration(facts.durationMs)} · full output: ${showControls(facts.path)}`,
        ),
      ],
    };
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
  const header: SummaryLine[] = [meta(headerLine(c, facts))];
  if (facts.previousId && c.gone !== undefined) {
    const added = c.candidates.filter((x) => x.isNew).length;
    header.push(meta(`[ctxwrap: vs ${facts.previousId}: ${added} new (marked +), ${c.gone} gone]`));
  }
  const room = budget - size(header);
  const { head: headPool, tail: tailPool } = pools(c, cap, shield);
  const ranked = [...c.candidates].sort((a, b) => rank(b) - rank(a) || a.line - b.line);

  const salientRoom = ranked.length > 0 ? Math.floor(room * 0.5) : 0;
  const edgeRoom = room - salientRoom;
  const headRoom = Math.floor(edgeRoom * (1 - tailRatio));
  const head = take(headPool, headRoom, () => false);
  const lastHead = head.entries.length ? (head.entries[head.entries.length - 1] as Entry).line : 0;
  const takeTail = (limit: number) => {
    const t = take(tailPool, limit, (l) => l <= lastHead, true);
    t.entries.reverse();
    return t;
  };
  let tail = takeTail(edgeRoom - head.used);
  const firstTail = () => (tail.entries.length ? Math.min(...tail.entries.map((e) => e.line)) : c.lines + 1);

  const middle: Entry[] = [];
  let used = 0;
  const chosen: Candidate[] = [];
  const pick = (limit: number, tailStart: number) => {
    for (const cand of ranked) {
      if (chosen.includes(cand) || cand.line <= lastHead || cand.line >= tailStart) continue;
      const entries = candidateEntries(cand, cap, shield).filter(
        (e) => e.line > lastHead && e.line < tailStart,
      );
      const need = entries.reduce((n, e) => n + cost(e.text), 0) + MARKER_COST;
      if (used + need > limit) continue;
      chosen.push(cand);
      middle.push(...entries.filter((e) => !middle.some((m) => m.line === e.line)));
      used += need;
    }
  };
  pick(salientRoom, firstTail());
  // Room the middle did not need goes to the tail.
  tail = takeTail(edgeRoom - head.used + (salientRoom - used));
  const tailStart = firstTail();
  for (let i = middle.length - 1; i >= 0; i--)
    if ((middle[i] as Entry).line >= tailStart) middle.splice(i, 1);

  let lines = assemble(header, head.entries, middle, tail.entries, c.lines);
  // Markers are estimated above; when the estimate was short, give back edge lines first (the
  // middle's salient lines are the reason a summary exists), then salient lines, least ranked first.
  const outputCount = (entries: Entry[]) => entries.filter((e) => e.role === 'output').length;
  while (size(lines) > budget) {
    if (outputCount(tail.entries) > 5) tail.entries.shift();
    else if (outputCount(head.entries) > 3) head.entries.pop();
    else if (chosen.length > 0) {
      const worst = chosen.pop() as Candidate;
      const drop = new Set(candidateEntries(worst, cap, shield).map((e) => e.line));
      for (let i = middle.length - 1; i >= 0; i--)
        if (drop.has((middle[i] as Entry).line)) middle.splice(i, 1);
    } else if (tail.entries.length > 0) tail.entries.shift();
    else if (head.entries.length > 0) head.entries.pop();
    else break;
    lines = assemble(header, head.entries, middle, tail.entries, c.lines);
  }
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
