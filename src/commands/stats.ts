/**
 * `ctxwrap stats`: what the run directory saved, honestly counted: the full output of every
 * result against everything printed to the agent about it (summaries, and every `read`,
 * `search` and `show` since, from the ledger).
 */
import { showControls } from '../controls.js';
import { formatBytes, formatCount, formatTokens } from '../format.js';
import { safeJson } from '../safe-json.js';
import { commandText } from '../store/command-text.js';
import { readLedger } from '../store/ledger.js';
import { isExpired, listEntries } from '../store/registry.js';
import { openRunDir } from '../store/run-dir.js';
import { estimateTokens } from '../tokens.js';
import { shorten, storedBytes } from './describe-result.js';

export interface StatsOptions {
  runDir: string;
  json?: boolean;
  /** Time to live: expired results are not counted. */
  ttlMs: number;
  now?: number;
  print: (text: string) => void;
}

/** One result's share: its output, its summary, and what was read back from it. */
interface ResultStats {
  id: string;
  command: string;
  bytes: number;
  summaryBytes: number;
  /** Prints about this result after its summary (`read`, `show`, ...). */
  readBacks: number;
  readBackBytes: number;
}

interface Stats {
  runDir: string;
  results: number;
  running: number;
  incomplete: number;
  full: { bytes: number; lines: number; tokens: number };
  printed: {
    bytes: number;
    tokens: number;
    summaryBytes: number;
    byKind: Record<string, { prints: number; bytes: number }>;
  };
  savedTokens: number;
  /** Share of the full output's tokens that never reached the agent, 0 to 1. */
  savedRatio: number;
  topCommands: { command: string; runs: number; bytes: number; readBacks: number }[];
  perResult: ResultStats[];
}

const TOP = 5;

function computeStats(runDir: string, ttlMs: number, now = Date.now()): Stats {
  const dir = openRunDir(runDir);
  const entries = listEntries(dir).filter((e) => !isExpired(e, ttlMs, now));
  const perResult = new Map<string, ResultStats>();
  let lines = 0;
  for (const e of entries) {
    perResult.set(e.meta.id, {
      id: e.meta.id,
      command: commandText(e.meta),
      bytes: storedBytes(dir, e.meta),
      summaryBytes: e.meta.summaryBytes ?? 0,
      readBacks: 0,
      readBackBytes: 0,
    });
    lines += e.meta.lines ?? 0;
  }
  // Prints about a result count while it is counted; prints across results (a search) count
  // from the oldest result counted on.
  const since = Math.min(...entries.map((e) => e.startedMs));
  const byKind: Record<string, { prints: number; bytes: number }> = {};
  for (const l of readLedger(dir)) {
    const result = l.id === undefined ? undefined : perResult.get(l.id);
    if (l.id === undefined ? l.t < since : !result) continue;
    const kind = byKind[l.kind] ?? { prints: 0, bytes: 0 };
    byKind[l.kind] = kind;
    kind.prints++;
    kind.bytes += l.bytes;
    if (result) {
      result.readBacks++;
      result.readBackBytes += l.bytes;
    }
  }
  const results = [...perResult.values()];
  const fullBytes = results.reduce((n, r) => n + r.bytes, 0);
  const summaryBytes = results.reduce((n, r) => n + r.summaryBytes, 0);
  const printedBytes = summaryBytes + Object.values(byKind).reduce((n, k) => n + k.bytes, 0);
  const fullTokens = estimateTokens(fullBytes);
  const printedTokens = estimateTokens(printedBytes);
  const top = new Map<string, { command: string; runs: number; bytes: number; readBacks: number }>();
  for (const r of results) {
    const t = top.get(r.command) ?? { command: r.command, runs: 0, bytes: 0, readBacks: 0 };
    t.runs++;
    t.bytes += r.bytes;
    t.readBacks += r.readBacks;
    top.set(r.command, t);
  }
  return {
    runDir: dir.root,
    results: entries.length,
    running: entries.filter((e) => e.state === 'running').length,
    incomplete: entries.filter((e) => e.state === 'incomplete').length,
    full: { bytes: fullBytes, lines, tokens: fullTokens },
    printed: { bytes: printedBytes, tokens: printedTokens, summaryBytes, byKind },
    savedTokens: Math.max(0, fullTokens - printedTokens),
    savedRatio: fullTokens === 0 ? 0 : Math.max(0, 1 - printedTokens / fullTokens),
    topCommands: [...top.values()]
      .sort((a, b) => b.bytes - a.bytes || (a.command < b.command ? -1 : 1))
      .slice(0, TOP),
    perResult: results,
  };
}

export async function showStats(opts: StatsOptions): Promise<number> {
  const stats = computeStats(opts.runDir, opts.ttlMs, opts.now);
  opts.print(opts.json ? `${safeJson(stats, 2)}\n` : render(stats));
  return 0;
}

function render(s: Stats): string {
  if (s.results === 0) return `[ctxwrap: no results in ${showControls(s.runDir)}]\n`;
  const states = [
    s.running ? `${s.running} running` : '',
    s.incomplete ? `${s.incomplete} incomplete` : '',
  ].filter(Boolean);
  const kinds = Object.entries(s.printed.byKind)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([kind, k]) =>
        `${kind} ${formatBytes(k.bytes)} in ${formatCount(k.prints)} print${k.prints === 1 ? '' : 's'}`,
    );
  const printedParts = [`summaries ${formatBytes(s.printed.summaryBytes)}`, ...kinds];
  const percent = `${(s.savedRatio * 100).toFixed(1)}%`;
  const out = [
    `[ctxwrap stats] ${showControls(s.runDir)}`,
    `results      ${formatCount(s.results)}${states.length ? ` (${states.join(', ')})` : ''}`,
    `full output  ${formatBytes(s.full.bytes)} · ${formatCount(s.full.lines)} lines · ~${formatTokens(s.full.tokens)} tokens`,
    `printed      ${formatBytes(s.printed.bytes)} · ~${formatTokens(s.printed.tokens)} tokens (${printedParts.join(', ')})`,
    `saved        ~${formatTokens(s.savedTokens)} tokens (${percent} of the full output never reached the agent)`,
    'top commands by size:',
  ];
  const width = Math.max(...s.topCommands.map((t) => formatBytes(t.bytes).length));
  for (const t of s.topCommands) {
    const reads = t.readBacks ? ` · ${t.readBacks} read-back${t.readBacks === 1 ? '' : 's'}` : '';
    out.push(
      `  ${formatBytes(t.bytes).padStart(width)}  ${shorten(t.command, 50)} (${t.runs} run${t.runs === 1 ? '' : 's'}${reads})`,
    );
  }
  return `${out.join('\n')}\n`;
}
