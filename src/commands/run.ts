/**
 * `ctxwrap run`: run a command (or read stdin), store every byte, print the summary.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { type CaptureResult, capture, signalNumber } from '../capture/spawn.js';
import { formatDuration } from '../format.js';
import { newId } from '../store/ids.js';
import { maybePrune } from '../store/prune.js';
import {
  type EndReason,
  lastRunOf,
  type ResultMeta,
  readFingerprint,
  resultPaths,
  setLastRun,
  writeAtomic,
  writeFingerprint,
  writeMeta,
} from '../store/results.js';
import { ensureRunDir, type RunDir, reason } from '../store/run-dir.js';
import { Collector } from '../summary/collector.js';
import { buildSummary, type RunFacts, renderSummary } from '../summary/render.js';
import { hintWords } from '../summary/salience.js';
import { keepBytesFor } from '../summary/summarize.js';

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
  /** Also stream every byte, as it arrives, to this sink (`--tee`). */
  tee?: (chunk: Buffer) => void;
  /** Called with progress while the command runs (for a terminal's status line). */
  onProgress?: (bytes: number, lines: number) => void;
  /** Where the summary goes. */
  print: (text: string) => void;
  /** Where the command's output goes when nothing can be stored (fail open). */
  passthrough: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Where ctxwrap's own warnings go (one line each). */
  warn: (text: string) => void;
  /** What the command gets as stdin: ctxwrap's own (default), or nothing (EOF at once). */
  childStdin?: 'inherit' | 'ignore';
  /** Reads stdin, for source `stdin`. */
  stdin?: AsyncIterable<Buffer>;
}

/** Runs a command under capture and returns ctxwrap's exit status. */
export async function runCommand(opts: RunOptions): Promise<number> {
  let dir: RunDir;
  try {
    dir = ensureRunDir(opts.runDir);
  } catch (error) {
    return runUnstored(opts, (error as Error).message);
  }
  const id = newId(opts.name ?? commandName(opts));
  const paths = resultPaths(dir, id);
  let fd: number;
  try {
    fd = openSync(paths.output, 'wx', 0o600);
  } catch (error) {
    return runUnstored(opts, `cannot write to ${dir.results}: ${reason(error)}`);
  }
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
  let storeError: string | undefined;
  const guard = (what: () => void) => {
    if (storeError) return;
    try {
      what();
    } catch (error) {
      storeError = reason(error);
    }
  };
  guard(() => writeMeta(dir, meta));

  const previousId = opts.source === 'stdin' ? undefined : lastRunOf(dir, opts.cwd, opts.command);
  const previous = previousId ? readFingerprint(dir, previousId) : undefined;
  const collector = new Collector({
    hints: opts.source === 'command' ? hintWords(opts.command) : hintWords(opts.command.slice(2)),
    keepBytes: keepBytesFor(opts.budget),
    ...(previous ? { previous } : {}),
  });
  let bytes = 0;
  let stderrBytes = 0;
  let stderrLines = 0;
  const onChunk = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    guard(() => writeSync(fd, chunk));
    collector.push(chunk);
    bytes += chunk.length;
    if (stream === 'stderr') {
      stderrBytes += chunk.length;
      stderrLines += countNewlines(chunk);
    }
    opts.tee?.(chunk);
    opts.onProgress?.(bytes, collector.lineCount);
  };

  let result: CaptureResult;
  if (opts.source === 'stdin') {
    const started = performance.now();
    for await (const chunk of opts.stdin ?? []) onChunk(chunk, 'stdout');
    result = {
      code: 0,
      signal: null,
      timedOut: false,
      pipesLeftOpen: false,
      durationMs: performance.now() - started,
    };
  } else {
    result = await capture({
      file: opts.command[0] as string,
      args: opts.command.slice(1),
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.childStdin ?? 'inherit',
      killGraceMs: opts.killGraceMs,
      drainMs: opts.drainMs,
      onChunk,
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    });
  }
  closeSync(fd);
  // The command has ended; a signal now must not stop the summary and the final metadata.
  const hold = () => {};
  for (const signal of HELD_SIGNALS) process.on(signal, hold);

  const ending = describeEnding(result, opts);
  const collected = collector.end();
  Object.assign(meta, {
    state: 'complete',
    durationMs: Math.round(result.durationMs),
    exitCode: ending.exitCode,
    childExitCode: result.code,
    signal: result.signal,
    endReason: ending.reason,
    bytes,
    lines: collected.lines,
    stderrBytes,
    stderrLines,
    binary: collected.binary,
    summary: {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: opts.redact,
      ...(previousId ? { previousId } : {}),
    },
  } satisfies Partial<ResultMeta>);
  if (collected.keyRanges.length > 0) meta.keyRanges = collected.keyRanges;
  if (ending.status) meta.status = ending.status;
  if (ending.cutShort) meta.cutShort = ending.cutShort;

  const facts: RunFacts = {
    id,
    path: paths.output,
    exitCode: ending.exitCode,
    durationMs: meta.durationMs as number,
    ...(meta.status ? { status: meta.status } : {}),
    ...(opts.source === 'stdin' ? { fromStdin: true } : {}),
    ...(previousId ? { previousId } : {}),
  };
  const text = renderSummary(
    buildSummary(collected, facts, {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: opts.redact,
    }),
  );
  meta.summaryBytes = Buffer.byteLength(text);
  guard(() => writeAtomic(paths.summary, text));
  guard(() => writeFingerprint(dir, id, collected.fingerprint));
  guard(() => writeMeta(dir, meta));
  if (opts.source !== 'stdin') guard(() => setLastRun(dir, opts.cwd, opts.command, id));
  opts.print(text);
  for (const signal of HELD_SIGNALS) process.off(signal, hold);
  maybePrune(dir);
  if (storeError) opts.warn(`the output of ${id} may be incomplete on disk: ${storeError}`);
  return ending.exitCode;
}

const HELD_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

interface Ending {
  exitCode: number;
  reason: EndReason;
  status?: string;
  cutShort?: string;
}

/** Turns how the child ended into ctxwrap's exit status, as a shell would report it. */
export function describeEnding(
  result: CaptureResult,
  opts: Pick<RunOptions, 'timeoutMs' | 'command' | 'source'>,
): Ending {
  const name = opts.command[0] ?? '';
  if (opts.source === 'stdin') return { exitCode: 0, reason: 'stdin' };
  if (result.spawnError) {
    const code = result.spawnError.code;
    if (code === 'ENOENT')
      return { exitCode: 127, reason: 'not-found', status: `command not found: ${name}` };
    if (code === 'EACCES' || code === 'EISDIR' || code === 'ENOEXEC')
      return { exitCode: 126, reason: 'not-executable', status: `not executable: ${name}` };
    return {
      exitCode: 126,
      reason: 'spawn-error',
      status: `could not start ${name}: ${code ?? result.spawnError.message}`,
    };
  }
  const leftOpen = result.pipesLeftOpen
    ? 'the command exited but a background process kept its output open; output may have continued'
    : undefined;
  const withOpen = (e: Ending): Ending =>
    leftOpen
      ? {
          ...e,
          cutShort: e.cutShort ?? leftOpen,
          status: e.status
            ? `${e.status}; output may have continued`
            : 'output may have continued after exit',
        }
      : e;
  if (result.timedOut) {
    const after = formatDuration(opts.timeoutMs ?? 0);
    return withOpen({
      exitCode: 124,
      reason: 'timeout',
      status: `timed out after ${after}`,
      cutShort: `timed out after ${after}`,
    });
  }
  if (result.interrupted) {
    const code = result.signal
      ? 128 + signalNumber(result.signal)
      : (result.code ?? 128 + signalNumber(result.interrupted));
    return withOpen({
      exitCode: code,
      reason: 'interrupted',
      status: `interrupted by ${result.interrupted}`,
      cutShort: `interrupted by ${result.interrupted}`,
    });
  }
  if (result.signal) {
    return withOpen({
      exitCode: 128 + signalNumber(result.signal),
      reason: 'signal',
      status: `killed by ${result.signal}`,
    });
  }
  return withOpen({ exitCode: result.code ?? 1, reason: 'exit' });
}

function commandName(opts: RunOptions): string {
  if (opts.source === 'stdin') return 'stdin';
  if (opts.source === 'shell') {
    const first = (opts.command[2] ?? '').trim().split(/[\s;&|()<>]+/)[0] ?? 'sh';
    return first.includes('=') ? 'sh' : first;
  }
  return opts.command[0] ?? 'cmd';
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Fail open: when nothing can be stored, the command still runs with its output going straight
 * to the terminal, one line says why, and its exit status comes back unchanged.
 */
async function runUnstored(opts: RunOptions, why: string): Promise<number> {
  opts.warn(`not storing output (${why}); running the command as is`);
  if (opts.source === 'stdin') {
    for await (const chunk of opts.stdin ?? []) opts.passthrough(chunk, 'stdout');
    return 0;
  }
  const result = await capture({
    file: opts.command[0] as string,
    args: opts.command.slice(1),
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.childStdin ?? 'inherit',
    killGraceMs: opts.killGraceMs,
    drainMs: opts.drainMs,
    onChunk: opts.passthrough,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const ending = describeEnding(result, opts);
  if (ending.status) opts.warn(ending.status);
  return ending.exitCode;
}
