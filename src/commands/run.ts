/**
 * `ctxwrap run`: run a command (or read stdin), store every byte, print the summary.
 */
import { type CaptureResult, capture, type StdinRelay, signalNumber } from '../capture/spawn.js';
import { formatBytes, formatDuration } from '../format.js';
import { newId } from '../store/ids.js';
import { OutputFile } from '../store/output-file.js';
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
import { type Collected, Collector } from '../summary/collector.js';
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
  let file: OutputFile;
  try {
    file = new OutputFile(paths.output);
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
  const guard = (what: () => void) => {
    try {
      what();
    } catch (error) {
      storeErrors.push(reason(error));
    }
  };
  guard(() => writeMeta(dir, meta));

  const previousId = opts.source === 'stdin' ? undefined : lastRunOf(dir, opts.cwd, opts.command);
  const previous = previousId ? readFingerprint(dir, previousId) : undefined;
  const summary = new GuardedCollector({
    hints: opts.source === 'command' ? hintWords(opts.command) : hintWords(opts.command.slice(2)),
    keepBytes: keepBytesFor(opts.budget),
    ...(previous ? { previous } : {}),
  });
  let bytes = 0;
  let stderrBytes = 0;
  let stderrLines = 0;
  const onChunk = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    file.write(chunk);
    summary.push(chunk);
    bytes += chunk.length;
    if (stream === 'stderr') {
      stderrBytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) stderrLines++;
    }
    opts.tee?.(chunk);
    opts.onProgress?.(bytes, summary.lineCount);
  };

  const result =
    opts.source === 'stdin' ? await readStdin(opts, onChunk, latch) : await runChild(opts, onChunk, latch);

  // The run directory (or the file) was removed while the command ran: make it again and keep
  // what was captured, rather than lose it with the last descriptor.
  let recovered = false;
  if (file.isRemoved()) {
    try {
      dir = ensureRunDir(opts.runDir);
      file.moveTo(paths.output);
      recovered = true;
    } catch (error) {
      storeErrors.push(`the run directory was removed during the run (${reason(error)})`);
    }
  }
  file.close();

  const ending = describeEnding(result, opts);
  const collected = summary.end();
  Object.assign(meta, {
    state: 'complete',
    durationMs: Math.round(result.durationMs),
    exitCode: ending.exitCode,
    childExitCode: result.code,
    signal: result.signal,
    endReason: ending.reason,
    bytes,
    lines: collected?.lines ?? 0,
    stderrBytes,
    stderrLines,
    binary: collected?.binary ?? false,
    summary: {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: opts.redact,
      ...(previousId ? { previousId } : {}),
    },
  } satisfies Partial<ResultMeta>);
  if (collected && collected.keyRanges.length > 0) meta.keyRanges = collected.keyRanges;
  if (ending.status) meta.status = ending.status;
  const storedAll = file.error === undefined;
  if (!storedAll) meta.storedBytes = file.stored;
  const cutShort =
    ending.cutShort ??
    (storedAll ? undefined : `stored only ${file.stored} of ${bytes} bytes: ${file.error}`);
  if (cutShort) meta.cutShort = cutShort;

  const facts: RunFacts = {
    id,
    path: paths.output,
    exitCode: ending.exitCode,
    durationMs: meta.durationMs as number,
    ...(meta.status ? { status: meta.status } : {}),
    ...(opts.source === 'stdin' ? { fromStdin: true } : {}),
    ...(previousId ? { previousId } : {}),
  };
  const text = collected
    ? renderSummary(
        buildSummary(collected, facts, {
          budget: opts.budget,
          tailRatio: opts.tailRatio,
          inlineThreshold: opts.inlineThreshold,
          redact: opts.redact,
        }),
      )
    : `[ctxwrap ${id}] exit ${ending.exitCode} · ${formatBytes(bytes)} · no summary (${summary.error}) · full output: ${paths.output}\n`;
  meta.summaryBytes = Buffer.byteLength(text);
  if (collected) guard(() => writeAtomic(paths.summary, text));
  if (collected) guard(() => writeFingerprint(dir, id, collected.fingerprint));
  guard(() => writeMeta(dir, meta));
  if (opts.source !== 'stdin' && storedAll) guard(() => setLastRun(dir, opts.cwd, opts.command, id));
  await opts.print(text);
  try {
    maybePrune(dir);
  } catch {
    /* pruning is housekeeping: it never changes how the run ends */
  }
  if (!storedAll)
    opts.warn(
      file.stored === 0
        ? `nothing of the ${formatBytes(bytes)} output of ${id} was stored (${file.error}); the summary above is of the whole output`
        : `stored only ${formatBytes(file.stored)} of the ${formatBytes(bytes)} output of ${id} (${file.error}); the summary above is of the whole output`,
    );
  else if (storeErrors.length > 0)
    opts.warn(`the output of ${id} is stored but its record may be incomplete (${storeErrors[0]})`);
  else if (recovered)
    opts.warn(`the run directory was removed while ${id} ran; made it again and stored the output`);
  return ending.exitCode;
}

/** Runs the child, unless a signal came before it could start. */
async function runChild(
  opts: RunOptions,
  onChunk: (chunk: Buffer, stream: 'stdout' | 'stderr') => void,
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
  return capture({
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

/** Reads ctxwrap's own stdin (`ctxwrap -`) until it ends, a signal comes, or the timeout. */
async function readStdin(
  opts: RunOptions,
  onChunk: (chunk: Buffer, stream: 'stdout' | 'stderr') => void,
  latch: SignalLatch,
): Promise<CaptureResult> {
  const started = performance.now();
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
      else onChunk(next.value, 'stdout');
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
    durationMs: performance.now() - started,
  };
  if (why === 'signal' && latch.first) result.interrupted = latch.first;
  return result;
}

/** The collector, but a failure inside it costs the summary, never the run or its stored bytes. */
class GuardedCollector {
  private collector: Collector;
  error: string | undefined;
  constructor(options: ConstructorParameters<typeof Collector>[0]) {
    this.collector = new Collector(options);
  }
  get lineCount(): number {
    return this.error === undefined ? this.collector.lineCount : 0;
  }
  push(chunk: Buffer): void {
    if (this.error !== undefined) return;
    try {
      this.collector.push(chunk);
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
