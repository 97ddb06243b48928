/**
 * The one owner of child processes. It runs a command whose stdout and stderr are one pipe that
 * ctxwrap reads (see output-pipe.ts), ctxwrap's own stdout and stderr (the fail-open path), or,
 * where no pipe can be made, two socket pairs whose chunks arrive in arrival order. It forwards
 * SIGINT/SIGTERM/SIGHUP (and SIGQUIT, which stops nothing by itself), enforces a timeout, and
 * does not wait for a pipe a background process keeps open: it hands it over (see drainer.ts).
 *
 * The command shares ctxwrap's process group, so that a kill of the group reaches it; signals
 * ctxwrap forwards go to the command's process tree (see process-tree.ts).
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
import {
  inTerminalForeground,
  isAlive,
  missedSignal,
  type Proc,
  processTree,
  signalAll,
} from './process-tree.js';

export type StreamName = 'stdout' | 'stderr';

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

/** Exit status a shell would give for a result: the code, or 128 + the signal's number. */
export function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}

/**
 * When, after a forwarded signal, the command's tree is looked at again (see chase): for new
 * processes until 300 ms, and once more at 1 s, on a loaded machine, for a missed signal only.
 */
const CHASE_MS = [20, 100, 300];
const LATE_CHASE_MS = 1000;

export function capture(req: CaptureRequest): Promise<CaptureResult> {
  const started = process.hrtime.bigint();
  const relay = typeof req.stdin === 'object' ? req.stdin : undefined;
  const output = req.output;
  const piped = typeof output === 'object' ? output : undefined;
  return new Promise((resolvePromise) => {
    let child: ChildProcess;
    let timedOut = false;
    let interrupted: NodeJS.Signals | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openStreams = output === 'inherit' ? 0 : piped ? 1 : 2;
    let reader: PipeReader | undefined;
    let settled = false;
    let killed = false;
    let treeWait: NodeJS.Timeout | undefined;
    let stopRelay = () => {};
    /** The command's processes seen when ctxwrap was told to stop (the command and what it started). */
    let tree: Proc[] = [];

    /** Adds `procs` to `tree`: the command's processes seen so far. */
    const remember = (procs: readonly Proc[]) => {
      const known = new Map(tree.map((p) => [p.pid, p]));
      for (const p of procs) known.set(p.pid, p);
      tree = [...known.values()];
    };
    /** The command and its descendants now, and those of the processes seen before. */
    const look = () =>
      processTree([...(child.pid !== undefined && !exited ? [child.pid] : []), ...tree.map((p) => p.pid)]);
    const terminate = (signal: NodeJS.Signals | undefined) => {
      if (child.pid === undefined) return;
      const now = look();
      remember(signal ? signalAll(now, signal) : now);
      // A process the command starts just after the signal (a shell forking its next command)
      // was not in the tree yet: it gets the signal too, from a few later looks.
      if (signal) {
        for (const ms of CHASE_MS) setTimeout(() => chase(signal, true), ms).unref();
        setTimeout(() => chase(signal, false), LATE_CHASE_MS).unref();
      }
      if (!killTimer) {
        killTimer = setTimeout(() => {
          killed = true;
          remember(signalAll(look(), 'SIGKILL'));
        }, req.killGraceMs);
        killTimer.unref();
      }
    };
    /**
     * Signals the command's processes that the signal reached as a shell's forked copy that has
     * since run its program (see missedSignal), and, with `andNew`, those that appeared since the
     * tree was last looked at.
     */
    const chase = (signal: NodeJS.Signals, andNew: boolean) => {
      if (settled || killed) return;
      const seen = new Map(tree.map((p) => [p.pid, p]));
      remember(
        signalAll(
          look().filter((p) => {
            const was = seen.get(p.pid);
            return was === undefined ? andNew : missedSignal(was, p);
          }),
          signal,
        ),
      );
    };
    /** True while a process of the command's tree (other than the command itself) is left. */
    const treeAlive = () => tree.some((p) => p.pid !== child.pid && isAlive(p));
    const onSignal = (signal: NodeJS.Signals) => {
      interrupted ??= signal;
      // A Ctrl-C at a terminal reached the command already (it is in ctxwrap's foreground
      // group): forwarding it too would make it arrive twice. The grace period still runs.
      terminate(signal === 'SIGINT' && inTerminalForeground() ? undefined : signal);
    };
    const forwarded = req.forward ?? DEFAULT_FORWARD;
    for (const s of forwarded) process.on(s, onSignal);
    // Ctrl-\ stops nothing by itself: a program may handle it (a JVM prints its threads and goes
    // on), so it is passed on, to the processes there now only (what a handler starts must not
    // get it too), and ctxwrap waits for the command as before. At a terminal the kernel has sent
    // it to the command already.
    const onQuit = () => {
      if (child?.pid !== undefined && !exited && !inTerminalForeground()) signalAll(look(), 'SIGQUIT', false);
    };
    process.on('SIGQUIT', onQuit);

    const finish = (spawnError?: NodeJS.ErrnoException) => {
      if (settled) return;
      // Told to stop (a signal, the timeout): the command has gone, but what it started gets
      // the rest of the grace period, then SIGKILL.
      if (spawnError === undefined && killTimer !== undefined && !killed && treeAlive()) {
        treeWait ??= setInterval(() => {
          if (killed || !treeAlive()) {
            clearInterval(treeWait);
            treeWait = undefined;
            finish();
          }
        }, 50);
        return;
      }
      settled = true;
      stopRelay();
      for (const s of forwarded) process.off(s, onSignal);
      process.off('SIGQUIT', onQuit);
      clearTimeout(killTimer);
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      const pipesLeftOpen = openStreams > 0 && spawnError === undefined;
      if (reader) {
        if (pipesLeftOpen && piped) {
          // A background process still holds the pipe: stop reading here (every byte taken so far
          // has been handed on) and give the pipe to a drainer that outlives ctxwrap.
          reader.pause();
          piped.handOver(reader.fd);
        }
        reader.close();
      } else if (pipesLeftOpen) {
        // Stop reading: a background process still holds the pipes.
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      const result: CaptureResult = {
        code: exited?.code ?? null,
        signal: exited?.signal ?? null,
        timedOut,
        pipesLeftOpen,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (spawnError) result.spawnError = spawnError;
      if (interrupted) result.interrupted = interrupted;
      resolvePromise(result);
    };

    /** Closes the pipe's ends that ctxwrap holds for nobody now (the command could not start). */
    let writerOpen = piped !== undefined;
    let readerOpen = piped !== undefined;
    const closeWriter = () => {
      if (piped && writerOpen) closeQuietly(piped.pipe.writeFd);
      writerOpen = false;
    };
    const closePipe = () => {
      closeWriter();
      if (reader) reader.close();
      else if (piped && readerOpen) closeQuietly(piped.pipe.readFd);
      readerOpen = false;
      reader = undefined;
    };
    if (req.file === '') {
      // What a shell says for an empty command name (spawn would throw ERR_INVALID_ARG_VALUE).
      closePipe();
      finish(Object.assign(new Error('empty command name'), { code: 'ENOENT' }));
      return;
    }
    const out = output === 'inherit' ? 'inherit' : piped ? piped.pipe.writeFd : 'pipe';
    try {
      // The command stays in ctxwrap's process group: a kill of that group (how a harness stops
      // a tool, or a terminal's Ctrl-C) reaches both.
      child = spawn(req.file, [...req.args], {
        cwd: req.cwd,
        env: req.env,
        stdio: [relay ? 'pipe' : (req.stdin as 'inherit' | 'ignore'), out, out],
      });
    } catch (error) {
      closePipe();
      finish(error as NodeJS.ErrnoException);
      return;
    }
    if (piped) {
      // The command has its end (spawn has run): ctxwrap keeps none open for writing, so that the
      // pipe ends when the command and whatever it started have closed theirs.
      closeWriter();
      if (child.pid !== undefined) {
        reader = new PipeReader(piped.pipe.readFd, piped.onChunk);
        reader.whenEnded(() => {
          openStreams--;
          if (openStreams === 0 && exited) finish();
        });
      }
    }

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        closePipe();
        finish(error);
      }
    });
    if (relay && child.stdin) stopRelay = startRelay(relay, child.stdin);
    const onEnd = () => {
      openStreams--;
      if (openStreams === 0 && exited) finish();
    };
    if (typeof output === 'function') {
      const onChunk = output;
      for (const name of ['stdout', 'stderr'] as const) {
        const stream = child[name];
        if (!stream) {
          openStreams--;
          continue;
        }
        stream.on('data', (chunk: Buffer) => onChunk(chunk, name));
        stream.on('close', onEnd);
        stream.on('error', () => {});
      }
    }
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      if (openStreams === 0) {
        finish();
        return;
      }
      drainTimer = setTimeout(() => finish(), req.drainMs);
    });
    if (req.timeoutMs !== undefined) {
      timeoutTimer = setTimeout(() => {
        timedOut = true;
        terminate('SIGTERM');
      }, req.timeoutMs);
    }
  });
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
