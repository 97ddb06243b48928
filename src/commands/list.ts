/** `ctxwrap list`: the registry of a run directory, newest first. */
import { showControls } from '../controls.js';
import { formatBytes, formatCount } from '../format.js';
import { safeJson } from '../safe-json.js';
import { commandText, maskedCommand } from '../store/command-text.js';
import { readNote } from '../store/notes.js';
import { maybePrune } from '../store/prune.js';
import { type Entry, isExpired, listEntries, type ResultState } from '../store/registry.js';
import { type ResultMeta, resultPaths } from '../store/results.js';
import { openRunDir, type RunDir } from '../store/run-dir.js';
import {
  countStoredLines,
  formatAge,
  shorten,
  storageCut,
  storageCutText,
  storedBytes,
} from './describe-result.js';

/** Colours for a terminal; list prints plain text without them. */
interface ListPaint {
  dim(text: string): string;
  /** Colours the exit column by outcome. */
  outcome(text: string, outcome: ResultState | 'ok' | 'failed'): string;
}

export interface ListOptions {
  runDir: string;
  json?: boolean;
  /** Most results listed, newest first; 0 for all (default: 50 as text, all as JSON). */
  limit?: number;
  /** Time to live: finished results older than this are expired and never listed. */
  ttlMs: number;
  now?: number;
  print: (text: string) => void;
  paint?: ListPaint;
}

/** One result as `list --json` gives it. */
interface ListedResult {
  id: string;
  state: ResultState;
  startedAt: string;
  ageMs: number;
  exitCode?: number;
  endReason?: string;
  status?: string;
  /** Lines stored (counted in the file when the run did not end whole). */
  lines?: number;
  /** Bytes stored. */
  bytes: number;
  /** Set when the command printed more than was stored: what it printed, and why the rest is missing. */
  outputBytes?: number;
  cutShort?: string;
  source: ResultMeta['source'];
  command: string[];
  name?: string;
  cwd: string;
  note?: string;
  path: string;
}

const DEFAULT_LIST_LIMIT = 50;
const COMMAND_WIDTH = 48;
const NOTE_WIDTH = 80;

export async function listResults(opts: ListOptions): Promise<number> {
  const dir = openRunDir(opts.runDir);
  const now = opts.now ?? Date.now();
  const entries = listEntries(dir).filter((e) => !isExpired(e, opts.ttlMs, now));
  const limit = opts.limit ?? (opts.json ? 0 : DEFAULT_LIST_LIMIT);
  const shown = limit > 0 ? entries.slice(0, limit) : entries;
  const listed = shown.map((e) => describe(dir, e, now));
  if (opts.json) opts.print(`${safeJson(listed, 2)}\n`);
  else opts.print(table(dir, listed, entries.length - shown.length, opts.paint));
  maybePrune(dir, now);
  return 0;
}

function describe(dir: RunDir, entry: Entry, now: number): ListedResult {
  const m = entry.meta;
  const note = readNote(dir, m);
  const bytes = storedBytes(dir, m);
  const cut = storageCut(m, bytes);
  const whole = entry.state === 'complete' && !cut && m.lines !== undefined;
  const lines = whole ? m.lines : countStoredLines(resultPaths(dir, m.id).output);
  return {
    id: m.id,
    state: entry.state,
    startedAt: m.startedAt,
    ageMs: Math.max(0, now - entry.startedMs),
    ...(entry.state === 'complete' && m.exitCode !== undefined ? { exitCode: m.exitCode } : {}),
    ...(m.endReason ? { endReason: m.endReason } : {}),
    ...(m.status ? { status: m.status } : {}),
    ...(lines !== undefined ? { lines } : {}),
    bytes,
    ...(cut ? { outputBytes: cut.total, cutShort: storageCutText(cut) } : {}),
    source: m.source,
    command: maskedCommand(m),
    ...(m.name ? { name: m.name } : {}),
    cwd: m.cwd,
    ...(note ? { note } : {}),
    path: resultPaths(dir, m.id).output,
  };
}

function exitText(r: ListedResult): string {
  if (r.state !== 'complete') return r.state;
  const code = r.exitCode === undefined ? '?' : String(r.exitCode);
  if (r.cutShort) return `${code} cut short`;
  if (r.endReason === 'timeout') return `${code} timeout`;
  if (r.endReason === 'signal' || r.endReason === 'interrupted')
    return `${code} ${r.endReason === 'signal' ? 'killed' : 'interrupted'}`;
  return code;
}

function table(dir: RunDir, rows: ListedResult[], hidden: number, paint?: ListPaint): string {
  if (rows.length === 0) return `[ctxwrap: no results in ${showControls(dir.root)}]\n`;
  const withNotes = rows.some((r) => r.note);
  const header = ['ID', 'AGE', 'EXIT', 'LINES', 'SIZE', 'COMMAND', ...(withNotes ? ['NOTE'] : [])];
  const cells = rows.map((r) => [
    r.id,
    formatAge(r.ageMs),
    exitText(r),
    r.lines === undefined ? '-' : formatCount(r.lines),
    formatBytes(r.bytes),
    shorten(commandText(r), COMMAND_WIDTH),
    ...(withNotes ? [shorten(r.note ?? '', NOTE_WIDTH)] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const right = new Set([3, 4]);
  const pad = (text: string, i: number) =>
    right.has(i) ? text.padStart(widths[i] as number) : text.padEnd(widths[i] as number);
  const line = (row: string[], colour?: (text: string, i: number) => string) =>
    row
      .map((c, i) => (colour ? colour(pad(c, i), i) : pad(c, i)))
      .join('  ')
      .trimEnd();
  const lines = [paint ? paint.dim(line(header)) : line(header)];
  rows.forEach((r, k) => {
    const outcome = r.state !== 'complete' ? r.state : r.exitCode === 0 ? 'ok' : 'failed';
    lines.push(
      line(
        cells[k] as string[],
        paint ? (text, i) => (i === 2 ? paint.outcome(text, outcome) : text) : undefined,
      ),
    );
  });
  if (hidden > 0)
    lines.push(`[ctxwrap: ${hidden} older result${hidden === 1 ? '' : 's'} not listed; --limit 0 lists all]`);
  return `${lines.join('\n')}\n`;
}
