/**
 * The one owner of child processes. It runs a command with stdout and stderr piped, hands every
 * chunk to `onChunk` in arrival order, forwards SIGINT/SIGTERM/SIGHUP, enforces a timeout, and
 * does not wait forever for pipes held open by a background grandchild.
 *
 * It uses node:child_process rather than execa: capture must tell the child's exit from the end
 * of its pipes (a daemon may keep them open), kill a whole process group, and add nothing to the
 * start-up time every wrapped command pays.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { isatty } from 'node:tty';

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
  /** After the command exits, how long to wait for its pipes to close. */
  drainMs: number;
  onChunk(chunk: Buffer, stream: StreamName): void;
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
  durationMs: number;
}

const DEFAULT_FORWARD: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Exit status a shell would give for a result: the code, or 128 + the signal's number. */
export function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}

export function capture(req: CaptureRequest): Promise<CaptureResult> {
  const started = process.hrtime.bigint();
  // A process group of its own lets us signal grandchildren too; but a child that must read a
  // terminal has to stay in the foreground group, so only detach when stdin is not a TTY.
  const detached = !(req.stdin === 'inherit' && isatty(0));
  const relay = typeof req.stdin === 'object' ? req.stdin : undefined;
  return new Promise((resolvePromise) => {
    let child: ChildProcess;
    let timedOut = false;
    let interrupted: NodeJS.Signals | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openStreams = 2;
    let settled = false;
    let killed = false;
    let groupWait: NodeJS.Timeout | undefined;
    let stopRelay = () => {};

    const kill = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        if (detached) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          /* already gone */
        }
      }
    };
    const terminate = (signal: NodeJS.Signals) => {
      kill(signal);
      if (!killTimer) {
        killTimer = setTimeout(() => {
          killed = true;
          kill('SIGKILL');
        }, req.killGraceMs);
        killTimer.unref();
      }
    };
    /** True while any process of the child's process group is left. */
    const groupAlive = () => {
      if (!detached || child.pid === undefined) return false;
      try {
        process.kill(-child.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const onSignal = (signal: NodeJS.Signals) => {
      interrupted ??= signal;
      terminate(signal);
    };
    const forwarded = req.forward ?? DEFAULT_FORWARD;
    for (const s of forwarded) process.on(s, onSignal);

    const finish = (spawnError?: NodeJS.ErrnoException) => {
      if (settled) return;
      // Told to stop (a signal, the timeout): the child has gone, but what it started in its
      // process group gets the rest of the grace period, then SIGKILL with the group.
      if (spawnError === undefined && killTimer !== undefined && !killed && groupAlive()) {
        groupWait ??= setInterval(() => {
          if (killed || !groupAlive()) {
            clearInterval(groupWait);
            groupWait = undefined;
            finish();
          }
        }, 50);
        return;
      }
      settled = true;
      stopRelay();
      for (const s of forwarded) process.off(s, onSignal);
      clearTimeout(killTimer);
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      const pipesLeftOpen = openStreams > 0 && spawnError === undefined;
      if (pipesLeftOpen) {
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

    try {
      child = spawn(req.file, [...req.args], {
        cwd: req.cwd,
        env: req.env,
        stdio: [relay ? 'pipe' : (req.stdin as 'inherit' | 'ignore'), 'pipe', 'pipe'],
        detached,
      });
    } catch (error) {
      finish(error as NodeJS.ErrnoException);
      return;
    }

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(error);
    });
    if (relay && child.stdin) stopRelay = startRelay(relay, child.stdin);
    const onEnd = () => {
      openStreams--;
      if (openStreams === 0 && exited) finish();
    };
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = child[name];
      if (!stream) {
        openStreams--;
        continue;
      }
      stream.on('data', (chunk: Buffer) => req.onChunk(chunk, name));
      stream.on('close', onEnd);
      stream.on('error', () => {});
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
