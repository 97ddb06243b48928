/**
 * Runs the wrapped command under capture (other modules start helpers of their own: the drainer,
 * mkfifo, a pager, ripgrep, the MCP server's runs, the hook's syntax check). The command's stdout
 * and stderr are one pipe that ctxwrap reads (see output-pipe.ts), ctxwrap's own stdout and
 * stderr (the fail-open path), or, where no pipe can be made, two socket pairs whose chunks
 * arrive in arrival order. It forwards SIGINT/SIGTERM/SIGHUP (and SIGQUIT, which stops nothing
 * by itself), enforces a timeout, and does not wait for a pipe a background process keeps open:
 * it hands it over (see drainer.ts).
 *
 * The command shares ctxwrap's process group, so that a kill of the group reaches it; signals
 * ctxwrap forwards go to the command's process tree (see stop-tree.ts and process-tree.ts).
 *
 * It uses node:child_process rather than execa: capture must tell the child's exit from the end
 * of its pipes (a daemon may keep them open), signal a process tree, and add nothing to the
 * start-up time every wrapped command pays.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import type { OutputPipe } from './output-pipe.js';
import { PipeReader } from './pipe-reader.js';
import { inTerminalForeground } from './process-tree.js';
import { TreeStopper } from './stop-tree.js';

type StreamName = 'stdout' | 'stderr';

export interface CaptureRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * The child's stdin: ctxwrap's own (`inherit`), none (`ignore`: EOF at once), or a relay of
   * `source` that gives the child EOF if nothing arrives within `quietMs` (see StdinRelay).
   */
  stdin: 'inherit' | 'ignore' | StdinRelay;
  /** Kill the command when this many milliseconds have passed. */
  timeoutMs?: number;
  /** After SIGTERM (forwarded, or on timeout), how long before SIGKILL. */
  killGraceMs: number;
  /** After the command exits, how long to wait for its output to end before handing it over. */
  drainMs: number;
  /** The command's stdout and stderr (see CaptureOutput). */
  output: CaptureOutput;
  /** The signals to forward; the default is SIGINT, SIGTERM and SIGHUP. */
  forward?: readonly NodeJS.Signals[];
}

/**
 * Relays a pipe or socket to the child's stdin. A pipe that nobody writes to and nobody closes
 * (an agent's harness often gives one) would keep a program that waits for input hanging for
 * ever: if no byte has arrived `quietMs` after the start, the child's stdin is closed (EOF) and
 * `source` is no longer read, so later bytes stay there for whoever reads it next. Once a byte
 * has arrived, everything is relayed until `source` ends.
 */
export interface StdinRelay {
  source: NodeJS.ReadableStream;
  quietMs: number;
}

/**
 * Where the command's stdout and stderr go: ctxwrap's own (`inherit`: fail open), one pipe given
 * to it as both (its chunks to `onChunk` as they arrive; still open when the command has exited
 * and `drainMs` passed, its read end to `handOver`, which must keep draining it), or two socket
 * pairs whose chunks go to the function (where no pipe can be made).
 */
export type CaptureOutput =
  | 'inherit'
  | { pipe: OutputPipe; onChunk: (chunk: Buffer) => void; handOver: (readFd: number) => void }
  | ((chunk: Buffer, stream: StreamName) => void);

export interface CaptureResult {
  /** The child's exit code, or null if it died of a signal or never ran. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started: ENOENT, EACCES, ... */
  spawnError?: NodeJS.ErrnoException;
  timedOut: boolean;
  /** The first forwarded signal that reached ctxwrap, if any. */
  interrupted?: NodeJS.Signals;
  /** True when the pipes were still open after the command exited and the drain wait. */
  pipesLeftOpen: boolean;
  /** From the start to the command's exit and the end of its output (or the hand-over). */
  durationMs: number;
}

const DEFAULT_FORWARD: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/**
 * Signals that ask a program for something rather than stop it (SIGUSR1, SIGUSR2, SIGALRM): passed
 * on to the command's process as they are. Their default action would kill ctxwrap (SIGUSR1
 * would open node's inspector), so run.ts holds them from the first line to the last.
 */
export const PASSED_SIGNALS: readonly NodeJS.Signals[] = ['SIGUSR1', 'SIGUSR2', 'SIGALRM'];

/** Exit status a shell would give for a result: the code, or 128 + the signal's number. */
export function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}

/** Runs the command under capture: resolves once it has exited and its output has ended (or was handed over). */
export function capture(req: CaptureRequest): Promise<CaptureResult> {
  return new Promise((resolve) => new Capture(req, resolve).start());
}

type PipedOutput = Extract<CaptureOutput, { pipe: OutputPipe }>;

/** One command under capture, from its spawn to its result. */
class Capture {
  private readonly started = process.hrtime.bigint();
  private readonly relay: StdinRelay | undefined;
  private readonly piped: PipedOutput | undefined;
  private readonly forwarded: readonly NodeJS.Signals[];
  private readonly stopper: TreeStopper;
  private child: ChildProcess | undefined;
  private timedOut = false;
  private interrupted: NodeJS.Signals | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private openStreams: number;
  private reader: PipeReader | undefined;
  private settled = false;
  private treeWait: NodeJS.Timeout | undefined;
  private stopRelay = () => {};
  /** The pipe's ends that ctxwrap still holds (closed for nobody when the command cannot start). */
  private writerOpen: boolean;
  private readerOpen: boolean;

  constructor(
    private readonly req: CaptureRequest,
    private readonly resolve: (result: CaptureResult) => void,
  ) {
    this.relay = typeof req.stdin === 'object' ? req.stdin : undefined;
    this.piped = typeof req.output === 'object' ? req.output : undefined;
    this.openStreams = req.output === 'inherit' ? 0 : this.piped ? 1 : 2;
    this.writerOpen = this.piped !== undefined;
    this.readerOpen = this.piped !== undefined;
    this.forwarded = req.forward ?? DEFAULT_FORWARD;
    this.stopper = new TreeStopper(
      () => (this.exited ? undefined : this.child?.pid),
      req.killGraceMs,
      () => this.settled,
    );
  }

  start(): void {
    const { req, piped } = this;
    for (const s of this.forwarded) process.on(s, this.onSignal);
    process.on('SIGQUIT', this.onQuit);
    for (const s of PASSED_SIGNALS) process.on(s, this.onPassed);
    if (req.file === '') {
      // What a shell says for an empty command name (spawn would throw ERR_INVALID_ARG_VALUE).
      this.closePipe();
      this.finish(Object.assign(new Error('empty command name'), { code: 'ENOENT' }));
      return;
    }
    const out = req.output === 'inherit' ? 'inherit' : piped ? piped.pipe.writeFd : 'pipe';
    let child: ChildProcess;
    try {
      // The command stays in ctxwrap's process group: a kill of that group (how a harness stops
      // a tool, or a terminal's Ctrl-C) reaches both.
      child = spawn(req.file, [...req.args], {
        cwd: req.cwd,
        env: req.env,
        stdio: [this.relay ? 'pipe' : (req.stdin as 'inherit' | 'ignore'), out, out],
      });
    } catch (error) {
      this.closePipe();
      this.finish(error as NodeJS.ErrnoException);
      return;
    }
    this.child = child;
    if (piped) {
      // The command has its end (spawn has run): ctxwrap keeps none open for writing, so that the
      // pipe ends when the command and whatever it started have closed theirs.
      this.closeWriter();
      if (child.pid !== undefined) {
        this.reader = new PipeReader(piped.pipe.readFd, piped.onChunk);
        this.reader.whenEnded(this.onEnd);
      }
    }
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        this.closePipe();
        this.finish(error);
      }
    });
    if (this.relay && child.stdin) this.stopRelay = startRelay(this.relay, child.stdin);
    if (typeof req.output === 'function') this.openStreams -= readSockets(child, req.output, this.onEnd);
    child.on('exit', (code, signal) => {
      this.exited = { code, signal };
      if (this.openStreams === 0) {
        this.finish();
        return;
      }
      this.drainTimer = setTimeout(() => this.finish(), req.drainMs);
    });
    if (req.timeoutMs !== undefined) {
      this.timeoutTimer = setTimeout(() => {
        this.timedOut = true;
        this.terminate('SIGTERM');
      }, req.timeoutMs);
    }
  }

  private readonly onEnd = (): void => {
    this.openStreams--;
    if (this.openStreams === 0 && this.exited) this.finish();
  };

  private terminate(signal: NodeJS.Signals | undefined): void {
    if (this.child?.pid === undefined) return;
    this.stopper.terminate(signal);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.interrupted ??= signal;
    // A Ctrl-C at a terminal reached the command already (it is in ctxwrap's foreground
    // group): forwarding it too would make it arrive twice. The grace period still runs.
    this.terminate(signal === 'SIGINT' && inTerminalForeground() ? undefined : signal);
  };

  // Ctrl-\ stops nothing by itself: a program may handle it (a JVM prints its threads and goes
  // on), so it is passed on, to the processes there now only (what a handler starts must not
  // get it too), and ctxwrap waits for the command as before. At a terminal the kernel has sent
  // it to the command already.
  private readonly onQuit = (): void => {
    if (this.child?.pid !== undefined && !this.exited && !inTerminalForeground()) this.stopper.quit();
  };

  private readonly onPassed = (signal: NodeJS.Signals): void => {
    const pid = this.child?.pid;
    if (pid === undefined || this.exited) return;
    try {
      process.kill(pid, signal);
    } catch {
      /* gone meanwhile */
    }
  };

  private finish(spawnError?: NodeJS.ErrnoException): void {
    if (this.settled) return;
    // Told to stop (a signal, the timeout): the command has gone, but what it started gets
    // the rest of the grace period, then SIGKILL.
    const stopper = this.stopper;
    if (
      spawnError === undefined &&
      stopper.stopping &&
      !stopper.killed &&
      stopper.othersAlive(this.child?.pid)
    ) {
      this.treeWait ??= setInterval(() => {
        if (stopper.killed || !stopper.othersAlive(this.child?.pid)) {
          clearInterval(this.treeWait);
          this.treeWait = undefined;
          this.finish();
        }
      }, 50);
      return;
    }
    this.settled = true;
    this.stopRelay();
    for (const s of this.forwarded) process.off(s, this.onSignal);
    process.off('SIGQUIT', this.onQuit);
    for (const s of PASSED_SIGNALS) process.off(s, this.onPassed);
    stopper.clear();
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.drainTimer);
    const pipesLeftOpen = this.openStreams > 0 && spawnError === undefined;
    this.stopReading(pipesLeftOpen);
    const result: CaptureResult = {
      code: this.exited?.code ?? null,
      signal: this.exited?.signal ?? null,
      timedOut: this.timedOut,
      pipesLeftOpen,
      durationMs: Number(process.hrtime.bigint() - this.started) / 1e6,
    };
    if (spawnError) result.spawnError = spawnError;
    if (this.interrupted) result.interrupted = this.interrupted;
    this.resolve(result);
  }

  /** Stops reading the output; a pipe a background process still holds goes to the drainer. */
  private stopReading(pipesLeftOpen: boolean): void {
    if (this.reader) {
      if (pipesLeftOpen && this.piped) {
        // A background process still holds the pipe: stop reading here (every byte taken so far
        // has been handed on) and give the pipe to a drainer that outlives ctxwrap.
        this.reader.pause();
        this.piped.handOver(this.reader.fd);
      }
      this.reader.close();
    } else if (pipesLeftOpen) {
      // Stop reading: a background process still holds the pipes.
      this.child?.stdout?.destroy();
      this.child?.stderr?.destroy();
    }
  }

  private closeWriter(): void {
    if (this.piped && this.writerOpen) closeQuietly(this.piped.pipe.writeFd);
    this.writerOpen = false;
  }

  /** Closes the pipe's ends that ctxwrap holds for nobody now (the command could not start). */
  private closePipe(): void {
    this.closeWriter();
    if (this.reader) this.reader.close();
    else if (this.piped && this.readerOpen) closeQuietly(this.piped.pipe.readFd);
    this.readerOpen = false;
    this.reader = undefined;
  }
}

/**
 * Reads the command's stdout and stderr from two socket pairs into `onChunk`, calling `onEnd` as
 * each closes; returns how many of the two the child does not have.
 */
function readSockets(
  child: ChildProcess,
  onChunk: (chunk: Buffer, stream: StreamName) => void,
  onEnd: () => void,
): number {
  let missing = 0;
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = child[name];
    if (!stream) {
      missing++;
      continue;
    }
    stream.on('data', (chunk: Buffer) => onChunk(chunk, name));
    stream.on('close', onEnd);
    stream.on('error', () => {});
  }
  return missing;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* closed already */
  }
}

/** Starts relaying `relay.source` to `sink`; returns the function that stops it (and ends `sink`). */
function startRelay(relay: StdinRelay, sink: NodeJS.WritableStream & { destroyed?: boolean }): () => void {
  const { source } = relay;
  let stopped = false;
  const onData = (chunk: Buffer) => {
    clearTimeout(quiet);
    if (!sink.write(chunk)) {
      source.pause();
      sink.once('drain', () => {
        if (!stopped) source.resume();
      });
    }
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(quiet);
    source.off('data', onData);
    source.off('end', stop);
    source.off('error', stop);
    source.pause();
    sink.end();
  };
  const quiet = setTimeout(stop, relay.quietMs);
  quiet.unref();
  sink.on('error', () => stop()); // EPIPE: the child does not read its stdin
  source.on('data', onData);
  source.on('end', stop);
  source.on('error', stop);
  source.resume();
  return stop;
}
