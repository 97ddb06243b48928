/**
 * `ctxwrap run`: run a command (or read stdin), store every byte, print the summary.
 */
import { type Ending, finishResult, startSummary } from '../capture/finish-result.js';
import { FileFollower } from '../capture/follow-file.js';
import { type CaptureResult, capture, type StdinRelay, signalNumber } from '../capture/spawn.js';
import { formatDuration } from '../format.js';
import { newId, toolName } from '../store/ids.js';
import { OutputFile, ResultFile, whyNotDirect } from '../store/output-file.js';
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
  /** Also stream every byte, as it arrives, to this sink (`--tee`). */
  tee?: (chunk: Buffer) => void;
  /** Called with progress while the command runs (for a terminal's status line). */
  onProgress?: (bytes: number, lines: number) => void;
  /** Where the summary goes; signals are held until the promise it may return settles. */
  print: (text: string) => void | Promise<void>;
  /** Where the command's output goes when nothing can be stored (fail open). */
  passthrough: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Where ctxwrap's own warnings go (one line each). */
  warn: (text: string) => void;
  /**
   * What the command gets as stdin: ctxwrap's own (default), nothing (EOF at once), or a relay
   * of a pipe or socket that may never be written to nor closed (see StdinRelay).
   */
  childStdin?: 'inherit' | 'ignore' | StdinRelay;
  /** Reads stdin, for source `stdin`. */
  stdin?: AsyncIterable<Buffer>;
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
  // The command writes the result file itself, unless that would hurt it (a file size limit, a
  // nearly full disk) or there is no command (`ctxwrap -`): then ctxwrap stores its pipes.
  const direct = opts.source !== 'stdin' && whyNotDirect(dir.results) === undefined;
  let sink: ResultFile | OutputFile;
  try {
    sink = direct ? new ResultFile(paths.output) : new OutputFile(paths.output);
  } catch (error) {
    return runUnstored(opts, `cannot write to ${dir.results}: ${reason(error)}`, latch);
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
  const storeErrors: string[] = [];
  try {
    writeMeta(dir, meta);
  } catch (error) {
    storeErrors.push(reason(error));
  }

  const summary = startSummary(dir, meta, opts.budget);
  let seen = 0;
  const see = (chunk: Buffer) => {
    summary.collector.push(chunk);
    seen += chunk.length;
    // The chunk is the follower's buffer, read into again next: the tee gets its own copy.
    opts.tee?.(Buffer.from(chunk));
    opts.onProgress?.(seen, summary.collector.lineCount);
  };

  let result: CaptureResult;
  let follower: FileFollower | undefined;
  let piped: { bytes: number; stored: number; error?: string } | undefined;
  if (sink instanceof ResultFile) {
    follower = new FileFollower(sink.readFd, see);
    follower.start();
    try {
      result = await runChild(opts, sink, latch);
    } finally {
      follower.stop();
    }
  } else {
    const file = sink;
    const onChunk = (chunk: Buffer) => {
      file.write(chunk);
      see(chunk);
    };
    result =
      opts.source === 'stdin' ? await readStdin(opts, onChunk, latch) : await runChild(opts, onChunk, latch);
  }

  // The run directory (or the file) was removed while the command ran: make it again and keep
  // what was captured, rather than lose it with the last descriptor.
  let recovered = false;
  let lost: string | undefined;
  if (sink.isRemoved()) {
    try {
      dir = ensureRunDir(opts.runDir);
      if (sink instanceof ResultFile) sink.copyTo(paths.output);
      else sink.moveTo(paths.output);
      recovered = true;
    } catch (error) {
      lost = reason(error);
    }
  }
  if (sink instanceof OutputFile) {
    sink.close();
    piped = { bytes: seen, stored: sink.stored, ...(sink.error !== undefined ? { error: sink.error } : {}) };
  }

  const ending = describeEnding(result, opts);
  const finished = finishResult({
    dir,
    meta,
    ending,
    childExitCode: result.code,
    signal: result.signal,
    durationMs: result.durationMs,
    options: {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: opts.redact,
    },
    summary,
    ...(follower ? { follower } : {}),
    ...(piped ? { piped } : {}),
    storeErrors,
  });
  if (sink instanceof ResultFile) sink.close();
  await opts.print(finished.text);
  try {
    maybePrune(dir);
  } catch {
    /* pruning is housekeeping: it never changes how the run ends */
  }
  if (lost !== undefined)
    opts.warn(
      `the run directory was removed while ${id} ran and could not be made again (${lost}); nothing of its output is stored, the summary above is of the whole output`,
    );
  else if (finished.warning) opts.warn(finished.warning);
  else if (finished.storeErrors.length > 0)
    opts.warn(`the output of ${id} is stored but its record may be incomplete (${finished.storeErrors[0]})`);
  else if (recovered)
    opts.warn(`the run directory was removed while ${id} ran; made it again and stored the output`);
  return ending.exitCode;
}

/** Runs the child (its output to the result file, or to `onChunk`), unless a signal came before it could start. */
async function runChild(
  opts: RunOptions,
  output: ResultFile | ((chunk: Buffer, stream: 'stdout' | 'stderr') => void),
  latch: SignalLatch,
): Promise<CaptureResult> {
  if (latch.first)
    return {
      code: null,
      signal: null,
      timedOut: false,
      pipesLeftOpen: false,
      durationMs: 0,
      interrupted: latch.first,
    };
  const running = capture({
    file: opts.command[0] as string,
    args: opts.command.slice(1),
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.childStdin ?? 'inherit',
    killGraceMs: opts.killGraceMs,
    drainMs: opts.drainMs,
    output: output instanceof ResultFile ? output.writeFd : output,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  // The command has its descriptor now (capture spawns at once): ctxwrap keeps none open for writing.
  if (output instanceof ResultFile) output.closeWriter();
  return running;
}

/** Reads ctxwrap's own stdin (`ctxwrap -`) until it ends, a signal comes, or the timeout. */
async function readStdin(
  opts: RunOptions,
  onChunk: (chunk: Buffer) => void,
  latch: SignalLatch,
): Promise<CaptureResult> {
  const started = process.hrtime.bigint();
  const source: AsyncIterable<Buffer> = opts.stdin ?? (async function* () {})();
  const iterator = source[Symbol.asyncIterator]();
  let stop: (why: 'signal' | 'timeout') => void = () => {};
  const stopped = new Promise<'signal' | 'timeout'>((resolve) => {
    stop = resolve;
  });
  const unlisten = latch.listen(() => stop('signal'));
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), opts.timeoutMs);
  let why: 'signal' | 'timeout' | undefined = latch.first ? 'signal' : undefined;
  try {
    while (why === undefined) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next === 'signal' || next === 'timeout') why = next;
      else if (next.done) break;
      else onChunk(next.value);
    }
  } finally {
    unlisten();
    clearTimeout(timer);
    if (why !== undefined) void iterator.return?.();
  }
  const result: CaptureResult = {
    code: 0,
    signal: null,
    timedOut: why === 'timeout',
    pipesLeftOpen: false,
    durationMs: Number(process.hrtime.bigint() - started) / 1e6,
  };
  if (why === 'signal' && latch.first) result.interrupted = latch.first;
  return result;
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
    },
  };
}

const HELD_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Turns how the child ended into ctxwrap's exit status, as a shell would report it. */
export function describeEnding(
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
      ? await readStdin(opts, (chunk) => opts.passthrough(chunk, 'stdout'), latch)
      : await runChild(opts, opts.passthrough, latch);
  const ending = describeEnding(result, opts);
  if (ending.status) opts.warn(ending.status);
  return ending.exitCode;
}
