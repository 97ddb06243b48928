/**
 * The end of every stored run: summarise a result file that is already written and finalise its
 * metadata. `ctxwrap -- cmd` calls it once the command has exited (the file is read to its end
 * here); so can anything else that had a command write `<id>.txt` itself (an agent's shell) and
 * wants ctxwrap's summary of it.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { formatBytes } from '../format.js';
import { linesAt } from '../store/lines-at.js';
import { storageFull } from '../store/output-file.js';
import {
  type EndReason,
  lastRunOf,
  openStoredOutput,
  type ResultMeta,
  readFingerprint,
  resultPaths,
  setLastRun,
  writeAtomic,
  writeFingerprint,
  writeMeta,
} from '../store/results.js';
import { type RunDir, reason } from '../store/run-dir.js';
import type { Collected, Compared } from '../summary/collected.js';
import { Collector } from '../summary/collector.js';
import { nameFromPrevious } from '../summary/gone.js';
import { buildSummary, type RunFacts, renderSummary } from '../summary/render.js';
import { hintWords } from '../summary/salience.js';
import { keepBytesFor } from '../summary/summarize.js';
import { FileFollower } from './follow-file.js';
import { optimizeNoMore } from './last-work.js';
import { SummaryWarmer } from './warm-summary.js';

/** How the run ended, as ctxwrap reports it (see describeEnding in commands/run.ts). */
export interface Ending {
  exitCode: number;
  reason: EndReason;
  status?: string;
  cutShort?: string;
}

/** How the summary is made (the run's --budget, ... ; kept in the metadata for `show`). */
interface SummaryOptions {
  budget: number;
  tailRatio: number;
  inlineThreshold: number;
  redact: boolean;
}

/** A result's summary in the making, and the previous run of the same command it compares with. */
export interface ResultSummary {
  collector: GuardedCollector;
  previousId?: string;
}

/**
 * Starts the summary of a result: the collector, told about the previous run of the same command.
 * `live`: the output is read while the command runs (not from a finished file), so idle reads
 * can warm the summary's code (see warm-summary.ts).
 */
export function startSummary(dir: RunDir, meta: ResultMeta, budget: number, live = false): ResultSummary {
  const previousId = meta.source === 'stdin' ? undefined : lastRunOf(dir, meta.cwd, meta.command);
  const previous = previousId ? readFingerprint(dir, previousId) : undefined;
  const collector = new GuardedCollector(
    {
      hints: meta.source === 'shell' ? hintWords(meta.command.slice(2)) : hintWords(meta.command),
      keepBytes: keepBytesFor(budget),
      ...(previous ? { previous } : {}),
    },
    live,
  );
  return previousId ? { collector, previousId } : { collector };
}

export interface FinishRequest {
  dir: RunDir;
  /** The metadata written when the run started (id, command, source, cwd, startedAt, pid, name). */
  meta: ResultMeta;
  ending: Ending;
  /** The command's own exit code and signal (null when it died of a signal or never ran). */
  childExitCode: number | null;
  signal: string | null;
  durationMs: number;
  options: SummaryOptions;
  /** The summary so far; made here (from the previous run) when absent. */
  summary?: ResultSummary;
  /**
   * For output that came through ctxwrap's pipes (fail open, `ctxwrap -`): how many bytes came
   * and how many of them reached the file. Absent: the file holds everything the command wrote.
   */
  piped?: { bytes: number; stored: number; error?: string };
  /** Errors met while storing the record so far; more are added here. */
  storeErrors?: string[];
  /**
   * The process ends once the result is finished (the CLI): V8 optimises no more code once the
   * output is read (see last-work.ts).
   */
  lastWork?: boolean;
}

export interface Finished {
  /** The summary to print. */
  text: string;
  meta: ResultMeta;
  /** True when the file may not hold the whole output (disk full, a write failed). */
  storedPart: boolean;
  /** One line for the person, when the output was not stored whole. */
  warning?: string;
  /** Errors met while writing the record (summary, fingerprint, metadata). */
  storeErrors: string[];
}

/**
 * Reads what is left of the result file into the summary, renders it, and writes the summary,
 * the fingerprint, the final metadata and the command's last-run pointer. A failure to write
 * any of these is collected in `storeErrors`, never thrown: the summary is always returned.
 */
export function finishResult(req: FinishRequest): Finished {
  const { dir, meta, ending, options } = req;
  const storeErrors = req.storeErrors ?? [];
  const guard = (what: () => void) => {
    try {
      what();
    } catch (error) {
      storeErrors.push(reason(error));
    }
  };
  const paths = resultPaths(dir, meta.id);
  const summary = req.summary ?? startSummary(dir, meta, options.budget);
  let bytes: number;
  let full: string | undefined;
  let truncated: string | undefined;
  if (req.piped) {
    bytes = req.piped.bytes;
  } else {
    // Written by something else (the hook's shell): the file is read whole.
    const follower = openFollower(paths.output, (chunk) => summary.collector.push(chunk), storeErrors);
    bytes = readRest(follower, paths.output, storeErrors);
    if (follower?.wasTruncated())
      truncated = `the command truncated its own output file (it opened /dev/stdout or /dev/stderr anew with '>'): the file holds ${follower.size()} of the ${bytes} bytes read`;
    follower?.close();
    // The command writes the file itself: a full disk made its own writes fail.
    full = storageFull(dir.results);
  }
  if (req.lastWork) optimizeNoMore();
  const collected = summary.collector.end();

  let status = ending.status;
  let cutShort = ending.cutShort;
  if (truncated) {
    cutShort ??= truncated;
    status = status ? `${status}; the command truncated its output` : 'the command truncated its output';
  }
  let warning: string | undefined;
  if (req.piped && req.piped.error !== undefined) {
    const { stored, error } = req.piped;
    meta.storedBytes = stored;
    cutShort ??= `stored only ${stored} of ${bytes} bytes: ${error}`;
    const cut = `output cut short: stored only ${formatBytes(stored)} of ${formatBytes(bytes)}`;
    status = status ? `${status}; ${cut}` : cut;
    warning =
      stored === 0
        ? `nothing of the ${formatBytes(bytes)} output of ${meta.id} was stored (${error}); the summary above is of the whole output`
        : `stored only ${formatBytes(stored)} of the ${formatBytes(bytes)} output of ${meta.id} (${error}); the summary above is of the whole output`;
  } else if (full !== undefined) {
    meta.storedBytes = bytes;
    const cut = `output cut short: ${full}`;
    cutShort = `the disk filled up (${full}): the command's writes to its output failed after ${bytes} bytes`;
    status = status ? `${status}; ${cut}` : cut;
    warning = `the disk holding ${dir.results} is full (${full}): the output of ${meta.id} may stop short at ${formatBytes(bytes)}, where the command's own writes failed`;
  }

  Object.assign(meta, {
    state: 'complete',
    durationMs: Math.round(req.durationMs),
    exitCode: ending.exitCode,
    childExitCode: req.childExitCode,
    signal: req.signal,
    endReason: ending.reason,
    bytes,
    lines: collected?.lines ?? 0,
    binary: collected?.binary ?? false,
    summary: {
      budget: options.budget,
      tailRatio: options.tailRatio,
      inlineThreshold: options.inlineThreshold,
      redact: options.redact,
      ...(summary.previousId ? { previousId: summary.previousId } : {}),
    },
  } satisfies Partial<ResultMeta>);
  if (collected && collected.keyRanges.length > 0) meta.keyRanges = collected.keyRanges;
  if (status) meta.status = status;
  if (cutShort) meta.cutShort = cutShort;

  const facts: RunFacts = {
    id: meta.id,
    path: paths.output,
    exitCode: ending.exitCode,
    durationMs: meta.durationMs as number,
    ...(status ? { status } : {}),
    ...(meta.source === 'stdin' ? { fromStdin: true } : {}),
    ...(summary.previousId ? { previousId: summary.previousId } : {}),
  };
  if (collected?.compared && summary.previousId) nameGone(dir, summary.previousId, collected.compared);
  const text = collected
    ? renderSummary(buildSummary(collected, facts, options))
    : `[ctxwrap ${meta.id}] exit ${ending.exitCode} · ${formatBytes(bytes)} · no summary (${summary.collector.error}) · full output: ${paths.output}\n`;
  meta.summaryBytes = Buffer.byteLength(text);
  if (collected) guard(() => writeAtomic(paths.summary, text));
  if (collected) guard(() => writeFingerprint(dir, meta.id, collected.fingerprint));
  guard(() => writeMeta(dir, meta));
  const storedPart = meta.storedBytes !== undefined;
  if (meta.source !== 'stdin' && !storedPart) guard(() => setLastRun(dir, meta.cwd, meta.command, meta.id));
  return { text, meta, storedPart, storeErrors, ...(warning ? { warning } : {}) };
}

/** Names gone lines the previous run kept no text of, from its stored output while it is there. */
function nameGone(dir: RunDir, previousId: string, compared: Compared): void {
  nameFromPrevious(compared, (lines, max) => {
    let fd: number | undefined;
    try {
      fd = openStoredOutput(dir, previousId);
      return linesAt(fd, lines, max);
    } catch {
      return new Map();
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  });
}

/** A follower of the result file from its start, or undefined (and why, in `storeErrors`). */
function openFollower(
  path: string,
  onChunk: (chunk: Buffer) => void,
  storeErrors: string[],
): FileFollower | undefined {
  try {
    return new FileFollower(openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW), onChunk);
  } catch (error) {
    storeErrors.push(`reading ${path}: ${reason(error)}`);
    return undefined;
  }
}

/** Reads the file to its end through `follower`; returns the position reached. */
function readRest(follower: FileFollower | undefined, path: string, storeErrors: string[]): number {
  if (!follower) return 0;
  try {
    follower.readAvailable();
  } catch (error) {
    storeErrors.push(`reading ${path}: ${reason(error)}`);
  }
  return follower.position;
}

/** The collector, but a failure inside it costs the summary, never the run or its stored bytes. */
class GuardedCollector {
  private collector: Collector;
  private readonly warmer: SummaryWarmer | undefined;
  error: string | undefined;
  constructor(options: ConstructorParameters<typeof Collector>[0] = {}, live = false) {
    this.collector = new Collector(options);
    this.warmer = live ? new SummaryWarmer(options) : undefined;
  }
  get lineCount(): number {
    return this.error === undefined ? this.collector.lineCount : 0;
  }
  push(chunk: Buffer): void {
    if (this.error !== undefined) return;
    try {
      this.collector.push(chunk);
      this.warmer?.push(chunk);
    } catch (error) {
      this.error = `internal error: ${(error as Error).message}`;
    }
  }
  end(): Collected | undefined {
    if (this.error !== undefined) return undefined;
    try {
      return this.collector.end();
    } catch (error) {
      this.error = `internal error: ${(error as Error).message}`;
      return undefined;
    }
  }
}
