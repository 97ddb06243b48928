/**
 * `ctxwrap run`: run a command (or read stdin), store every byte, print the summary.
 */

import { closeSync } from 'node:fs';
import { startDrainer } from '../capture/drainer.js';
import { type Ending, finishResult, startSummary } from '../capture/finish-result.js';
import { makeOutputPipe, makeSpare, type OutputPipe } from '../capture/output-pipe.js';
import { readStdin } from '../capture/read-stdin.js';
import {
  type CaptureOutput,
  type CaptureResult,
  capture,
  PASSED_SIGNALS,
  type StdinRelay,
  signalNumber,
} from '../capture/spawn.js';
import { formatDuration } from '../format.js';
import { newId, toolName } from '../store/ids.js';
import { OutputFile, type StoreLimits } from '../store/output-file.js';
import { maybePrune } from '../store/prune.js';
import { type ResultMeta, resultPaths, writeMeta } from '../store/results.js';
import { ensureRunDir, type RunDir, reason } from '../store/run-dir.js';

export interface RunOptions {
  runDir: string;
  /** argv of the command; for a shell string, `['/bin/sh', '-c', string]`. Empty with `stdin`. */
  command: string[];
  source: 'command' | 'shell' | 'stdin';
  name?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  budget: number;
  tailRatio: number;
  inlineThreshold: number;
  /** Mask credentials in the summary (the stored file always keeps the raw bytes). */
  redact: boolean;
  timeoutMs?: number;
  killGraceMs: number;
  drainMs: number;
  /** The cap on stored bytes and the free-space floor (--max-output, --min-free). */
  limits: StoreLimits;
  /** Also stream every byte, as it arrives, to this sink (`--tee`). */
  tee?: (chunk: Buffer) => void;
  /**
   * Called with progress while the command runs (for a terminal's status line): bytes, lines,
   * and the last line while it has no newline yet (a prompt such as `Name? `), at most 200 bytes.
   */
  onProgress?: (bytes: number, lines: number, partial: Buffer) => void;
  /** Where the summary goes; signals are held until the promise it may return settles. */
  print: (text: string) => void | Promise<void>;
  /** Where `ctxwrap -` passes its input when nothing can be stored (fail open). */
  passthrough: (chunk: Buffer) => void;
  /** Where ctxwrap's own warnings go (one line each). */
  warn: (text: string) => void;
  /**
   * What the command gets as stdin: ctxwrap's own (default), nothing (EOF at once), or a relay
   * of a pipe or socket that may never be written to nor closed (see StdinRelay).
   */
  childStdin?: 'inherit' | 'ignore' | StdinRelay;
  /** Reads stdin, for source `stdin`. */
  stdin?: NodeJS.ReadableStream;
}

/** Runs a command under capture and returns ctxwrap's exit status. */
export async function runCommand(opts: RunOptions): Promise<number> {
  // From the first line to the last, SIGINT/SIGTERM/SIGHUP never kill ctxwrap outright: before
  // the command starts they cancel it, while it runs they are forwarded to it, and once it has
  // ended they cannot stop the summary and the final metadata.
  const latch = latchSignals();
  try {
    return await runLatched(opts, latch);
  } finally {
    latch.release();
  }
}

async function runLatched(opts: RunOptions, latch: SignalLatch): Promise<number> {
  let dir: RunDir;
  try {
    dir = ensureRunDir(opts.runDir);
  } catch (error) {
    return runUnstored(opts, (error as Error).message, latch);
  }
  const id = newId(opts.name ?? commandName(opts));
  const paths = resultPaths(dir, id);
  // The command's one pipe is made while the record is written (see output-pipe.ts).
  const pipeMade = opts.source === 'stdin' ? undefined : makeOutputPipe(dir.results);
  let sink: OutputFile;
  try {
    sink = new OutputFile(paths.output, opts.limits);
  } catch (error) {
    closePipe(await pipeMade);
    return runUnstored(opts, `cannot write to ${dir.results}: ${reason(error)}`, latch);
  }
  const meta = runningMeta(opts, id);
  const storeErrors: string[] = [];
  try {
    writeMeta(dir, meta);
  } catch (error) {
    storeErrors.push(reason(error));
  }

  const summary = startSummary(dir, meta, opts.budget, true);
  let seen = 0;
  let partial: Buffer = Buffer.alloc(0);
  const onChunk = (chunk: Buffer) => {
    sink.write(chunk);
    summary.collector.push(chunk);
    seen += chunk.length;
    // The chunk is the reader's buffer, read into again next: the tee gets its own copy.
    opts.tee?.(Buffer.from(chunk));
    if (opts.onProgress) {
      partial = lastPartialLine(partial, chunk);
      opts.onProgress(seen, summary.collector.lineCount, partial);
    }
  };

  let result: CaptureResult;
  if (opts.source === 'stdin') result = await readStdin(opts, onChunk, latch);
  else {
    const pipe = await pipeMade;
    const output: CaptureOutput = pipe
      ? {
          pipe,
          onChunk,
          handOver: (fd) => {
            const room = sink.error === undefined ? opts.limits.maxBytes - sink.stored : 0;
            const failed = startDrainer(fd, sink.path, room);
            if (failed !== undefined)
              storeErrors.push(`the background output could not be followed: ${failed}`);
          },
        }
      : // No FIFO could be made: two socket pairs, whose order between them is arrival order.
        onChunk;
    const running = runChild(opts, output, latch, pipe);
    // The command has started (capture spawns at once): the next run's pipe is made meanwhile.
    if (pipe && !latch.first) makeSpare(dir.results);
    result = await running;
  }

  const kept = keepIfRemoved(sink, opts.runDir, paths.output);
  if (kept.dir) dir = kept.dir;
  sink.close();
  const piped = {
    bytes: seen,
    stored: sink.stored,
    ...(sink.error !== undefined ? { error: sink.error } : {}),
  };

  const ending = describeEnding(result, opts);
  const finished = finishResult({
    dir,
    meta,
    ending,
    childExitCode: result.code,
    signal: result.signal,
    durationMs: result.durationMs,
    options: summaryOptions(opts),
    summary,
    piped,
    storeErrors,
    lastWork: true,
  });
  await opts.print(finished.text);
  try {
    maybePrune(dir);
  } catch {
    /* pruning is housekeeping: it never changes how the run ends */
  }
  warnAfterRun(opts.warn, id, kept, finished);
  return ending.exitCode;
}

/** The record of a run that starts now. */
function runningMeta(opts: RunOptions, id: string): ResultMeta {
  const meta: ResultMeta = {
    version: 1,
    id,
    command: opts.command,
    source: opts.source,
    cwd: opts.cwd,
    startedAt: new Date().toISOString(),
    state: 'running',
    pid: process.pid,
  };
  if (opts.name) meta.name = opts.name;
  return meta;
}

/**
 * The run directory (or the file) was removed while the command ran: makes it again and keeps
 * what was captured, rather than lose it with the last descriptor.
 */
function keepIfRemoved(
  sink: OutputFile,
  runDir: string,
  output: string,
): { dir?: RunDir; recovered: boolean; lost?: string } {
  if (!sink.isRemoved()) return { recovered: false };
  try {
    const dir = ensureRunDir(runDir);
    sink.moveTo(output);
    return { dir, recovered: true };
  } catch (error) {
    return { recovered: false, lost: reason(error) };
  }
}

/** How the summary is made: the run's --budget, ... (kept in the metadata for `show`). */
function summaryOptions(opts: RunOptions) {
  const { budget, tailRatio, inlineThreshold, redact } = opts;
  return { budget, tailRatio, inlineThreshold, redact };
}

/** The one warning a run ends with, if any: the worst of what went wrong in storing it. */
function warnAfterRun(
  warn: (text: string) => void,
  id: string,
  kept: { recovered: boolean; lost?: string },
  finished: { warning?: string; storeErrors: string[] },
): void {
  if (kept.lost !== undefined)
    warn(
      `the run directory was removed while ${id} ran and could not be made again (${kept.lost}); nothing of its output is stored, the summary above is of the whole output`,
    );
  else if (finished.warning) warn(finished.warning);
  else if (finished.storeErrors.length > 0)
    warn(`the output of ${id} is stored but its record may be incomplete (${finished.storeErrors[0]})`);
  else if (kept.recovered)
    warn(`the run directory was removed while ${id} ran; made it again and stored the output`);
}

/** Runs the child, unless a signal came before it could start. */
async function runChild(
  opts: RunOptions,
  output: CaptureOutput,
  latch: SignalLatch,
  pipe?: OutputPipe,
): Promise<CaptureResult> {
  if (latch.first) {
    closePipe(pipe);
    return {
      code: null,
      signal: null,
      timedOut: false,
      pipesLeftOpen: false,
      durationMs: 0,
      interrupted: latch.first,
    };
  }
  return capture({
    file: opts.command[0] as string,
    args: opts.command.slice(1),
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.childStdin ?? 'inherit',
    killGraceMs: opts.killGraceMs,
    drainMs: opts.drainMs,
    output,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
}

function closePipe(pipe: OutputPipe | undefined): void {
  if (!pipe) return;
  closeSync(pipe.readFd);
  closeSync(pipe.writeFd);
}

interface SignalLatch {
  /** The first signal that reached ctxwrap, if any. */
  readonly first: NodeJS.Signals | undefined;
  /** Calls `fn` on each signal from now on; returns the function that stops it. */
  listen(fn: (signal: NodeJS.Signals) => void): () => void;
  release(): void;
}

function latchSignals(): SignalLatch {
  let first: NodeJS.Signals | undefined;
  const listeners = new Set<(signal: NodeJS.Signals) => void>();
  const on = (signal: NodeJS.Signals) => {
    first ??= signal;
    for (const fn of listeners) fn(signal);
  };
  for (const signal of HELD_SIGNALS) process.on(signal, on);
  // Never fatal to ctxwrap; capture passes them on to the command while it runs.
  for (const signal of PASSED_SIGNALS) process.on(signal, ignore);
  return {
    get first() {
      return first;
    },
    listen(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    release() {
      for (const signal of HELD_SIGNALS) process.off(signal, on);
      for (const signal of PASSED_SIGNALS) process.off(signal, ignore);
    },
  };
}

const ignore = () => {};

/** SIGQUIT too: it never kills ctxwrap (see capture, which passes it on to the command). */
const HELD_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** Turns how the child ended into ctxwrap's exit status, as a shell would report it. */
function describeEnding(
  result: CaptureResult,
  opts: Pick<RunOptions, 'timeoutMs' | 'command' | 'source'>,
): Ending {
  const name = opts.command[0] ?? '';
  if (opts.source === 'stdin') {
    if (result.interrupted) {
      const why = `interrupted by ${result.interrupted}`;
      return {
        exitCode: 128 + signalNumber(result.interrupted),
        reason: 'interrupted',
        status: why,
        cutShort: why,
      };
    }
    if (result.timedOut) {
      const why = `timed out after ${formatDuration(opts.timeoutMs ?? 0)}`;
      return { exitCode: 124, reason: 'timeout', status: why, cutShort: why };
    }
    return { exitCode: 0, reason: 'stdin' };
  }
  if (result.spawnError) {
    const code = result.spawnError.code;
    if (code === 'ENOENT')
      return {
        exitCode: 127,
        reason: 'not-found',
        status: `command not found: ${name === '' ? "''" : name}`,
      };
    if (code === 'EACCES' || code === 'EISDIR' || code === 'ENOEXEC')
      return { exitCode: 126, reason: 'not-executable', status: `not executable: ${name}` };
    return {
      exitCode: 126,
      reason: 'spawn-error',
      status: `could not start ${name}: ${code ?? result.spawnError.message}`,
    };
  }
  if (result.timedOut) {
    const after = formatDuration(opts.timeoutMs ?? 0);
    return {
      exitCode: 124,
      reason: 'timeout',
      status: `timed out after ${after}`,
      cutShort: `timed out after ${after}`,
    };
  }
  if (result.interrupted) {
    const code = result.signal
      ? 128 + signalNumber(result.signal)
      : (result.code ?? 128 + signalNumber(result.interrupted));
    return {
      exitCode: code,
      reason: 'interrupted',
      status: `interrupted by ${result.interrupted}`,
      cutShort: `interrupted by ${result.interrupted}`,
    };
  }
  if (result.signal) {
    return {
      exitCode: 128 + signalNumber(result.signal),
      reason: 'signal',
      status: `killed by ${result.signal}`,
    };
  }
  return { exitCode: result.code ?? 1, reason: 'exit' };
}

/** The output's last line so far while it has no newline (its last 200 bytes), after `chunk`. */
function lastPartialLine(before: Buffer, chunk: Buffer): Buffer {
  const nl = chunk.lastIndexOf(10);
  const tail = chunk.subarray(nl + 1, chunk.length).subarray(-200);
  if (nl >= 0) return Buffer.from(tail);
  return Buffer.concat([before, tail]).subarray(-200);
}

function commandName(opts: RunOptions): string {
  if (opts.source === 'stdin') return 'stdin';
  if (opts.source === 'shell') {
    const words = (opts.command[2] ?? '')
      .trim()
      .split(/[;&|()<>]/)[0]!
      .split(/\s+/)
      .filter(Boolean);
    const tool = toolName(words);
    return tool === '' || tool.includes('=') ? 'sh' : tool;
  }
  return toolName(opts.command) || 'cmd';
}

/**
 * Fail open: when nothing can be stored, the command still runs with its output going straight
 * to the terminal, one line says why, and its exit status comes back unchanged.
 */
async function runUnstored(opts: RunOptions, why: string, latch: SignalLatch): Promise<number> {
  opts.warn(`not storing output (${why}); running the command as is`);
  const result =
    opts.source === 'stdin'
      ? await readStdin(opts, opts.passthrough, latch)
      : await runChild(opts, 'inherit', latch);
  const ending = describeEnding(result, opts);
  if (ending.status) opts.warn(ending.status);
  return ending.exitCode;
}
