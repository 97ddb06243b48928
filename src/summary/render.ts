/**
 * The second half of the summary: from what the collector gathered and the run's facts to the
 * exact text the agent sees, never longer than the budget. Pure and deterministic.
 */
import { formatBytes, formatCount, formatDuration, formatTokens } from '../format.js';
import { inertLine, type Shield, shieldFor } from '../shield.js';
import { DEFAULT_BUDGET, DEFAULT_TAIL_RATIO } from '../summary-budget.js';
import { estimateTokens } from '../tokens.js';
import { CHAIN_LINES } from '../wrapped-token.js';
import { cost, repeatMarker, size } from './assemble.js';
import { cleanLines, showControls } from './clean.js';
import type { Collected } from './collected.js';
import { joinEndRun } from './end-run.js';
import { joinRun } from './line-run.js';
import { cutLine } from './lines.js';
import { select } from './select.js';

export { cutLine, repeatMarker };

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

/**
 * The width a duration is measured at (`977ms`, `59.9s`, `1m05s`, `1h02m`; a shorter one is
 * measured as if it were this wide), so that the room left for the output, and so the lines
 * chosen, do not depend on how long the run took. A run of 10 to 60 minutes (`12m05s`) is
 * measured as it is: one character more.
 */
const DURATION_WIDTH = 5;

/**
 * The header line, shortened until it leaves room for the output under a small budget, and how
 * much longer it is measured than it is (see DURATION_WIDTH).
 */
function headerLine(c: Collected, facts: RunFacts, budget: number): { text: string; slack: number } {
  const lines = `${formatCount(c.lines)} line${c.lines === 1 ? '' : 's'}`;
  const path = `full output: ${showControls(facts.path)}`;
  const duration = formatDuration(facts.durationMs);
  const slack = Math.max(0, DURATION_WIDTH - duration.length);
  const variants = [
    [
      statusPart(facts),
      lines,
      formatBytes(c.bytes),
      `~${formatTokens(estimateTokens(c.bytes))} tokens`,
      duration,
      path,
    ],
    [statusPart(facts), lines, formatBytes(c.bytes), duration, path],
    [statusPart(facts), lines, formatBytes(c.bytes), `ctxwrap read ${facts.id}`],
    [statusPart(facts), lines],
  ];
  for (const parts of variants) {
    const text = `[ctxwrap ${facts.id}] ${parts.join(' · ')}`;
    const pad = parts.includes(duration) ? slack : 0;
    if (text.length + pad <= budget * 0.45) return { text, slack: pad };
  }
  return { text: cutLine(`[ctxwrap ${facts.id}] ${statusPart(facts)}`, Math.floor(budget * 0.45)), slack: 0 };
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

  const whole = c.complete ? verbatim(c, facts, shield) : undefined;
  if (whole && size(whole.lines) <= inline) return whole;
  const summary = summarized(c, facts, budget, tailRatio, shield, options.redact ?? true);
  // Worth the cut: a summary that saves less than a third of the output gives way to the whole
  // output, up to twice the budget (never when a lower inline threshold asks for summaries). A
  // summary may stop short of its budget when nothing more is worth showing: it is measured as
  // if it had spent it.
  const saves = whole ? 1 - Math.max(size(summary.lines), budget) / size(whole.lines) : 1;
  if (whole && inline >= budget && size(whole.lines) <= 2 * budget && saves < 1 / 3) return whole;
  return summary;
}

/** The whole cleaned output, with a stats line when the run failed or came from stdin. */
function verbatim(c: Collected, facts: RunFacts, shield: Shield): Summary {
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
    text: inert(shield(i + 1, text, { after: () => lines.slice(i + 1, i + 1 + CHAIN_LINES).join('\n') })),
    line: i + 1,
  }));
  if (stats) out.push(stats);
  const finalNewline = stats !== undefined || c.bytes === 0 || c.head[c.head.length - 1] === 10;
  return { kind: 'verbatim', lines: out, ...(finalNewline ? {} : { finalNewline }) };
}

/** The summary proper: the header, then the chosen lines within the budget. */
function summarized(
  c: Collected,
  facts: RunFacts,
  budget: number,
  tailRatio: number,
  shield: Shield,
  redact: boolean,
): Summary {
  const cap = Math.max(80, Math.floor(budget * 0.16));
  const top = headerLine(c, facts, budget);
  const header: SummaryLine[] = [meta(top.text)];
  if (facts.previousId && c.compared) {
    const vs = c.compared.related
      ? `[ctxwrap: vs ${facts.previousId}, the previous run of this command here: ${formatCount(c.compared.fresh)} new line${c.compared.fresh === 1 ? '' : 's'} (marked +), ${formatCount(c.compared.gone)} salient gone]`
      : `[ctxwrap: the previous run ${facts.previousId} has too little in common to compare with]`;
    if (size(header) + top.slack + cost(vs) <= budget * 0.6) {
      header.push(meta(vs));
      if (c.compared.related)
        header.push(...goneLines(c.compared.goneTexts, budget - size(header) - top.slack, redact));
    }
  }
  const room = budget - size(header) - top.slack;
  // A run of identical lines longer than the head, the tail starts in, or ending the output, is
  // told once, from its first line (see line-run.ts, tail-run.ts and end-run.ts).
  const chosen = select(c, room, Math.min(cap, Math.max(20, room - 2)), shield, {
    tailRatio,
    success: facts.exitCode === 0,
  });
  const entries = joinEndRun(joinRun(chosen, c.run), [...(c.run ? [c.run] : []), ...(c.endRuns ?? [])]);
  const lines: SummaryLine[] = [...header];
  for (const e of entries)
    lines.push(e.role === 'meta' ? meta(e.text) : { role: e.role, text: e.text, line: e.line });
  return { kind: 'summary', lines };
}

/**
 * The gone lines the comparison names, one meta line each, cleaned and shielded like any printed
 * line and cut short, while the header stays within 60% of the budget.
 */
function goneLines(texts: string[], left: number, redact: boolean): SummaryLine[] {
  const out: SummaryLine[] = [];
  // A shield of its own: these lines are not lines of this output.
  const shield = shieldFor([], redact);
  let room = Math.floor(left * 0.4);
  for (const t of texts) {
    const line = `[ctxwrap: gone: ${cutLine(inert(shield(1, showControls(t))), GONE_CAP)}]`;
    if (cost(line) > room) break;
    out.push(meta(line));
    room -= cost(line);
  }
  return out;
}

const GONE_CAP = 120;

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
