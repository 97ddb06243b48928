/**
 * The MCP server's runs. Each is a ctxwrap child process (`node <ctxwrap> -c <command>`, in a
 * process group of its own), so the capture that every command-line run gets (process groups,
 * signals, timeouts, the stored file) is the same here, and each run can be stopped alone:
 * cancelling the request (`notifications/cancelled`) or losing the client sends it SIGTERM,
 * which ctxwrap forwards to the command's process group (SIGKILL after the grace period).
 * While it runs, progress (elapsed, lines, bytes) goes to a client that asked for it; past the
 * wait (default 50 s, under the 60 s most clients allow a request) the request is answered with
 * the output so far while the command keeps running and stores its output when it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CtxwrapError, EXIT_USAGE } from '../errors.js';
import { formatBytes, formatCount, formatDuration } from '../format.js';
import { ownNodeEnv } from '../own-node-env.js';
import { parseMeta, resultPaths } from '../store/results.js';
import { ensureRunDir, runDirAt } from '../store/run-dir.js';
import { Collector } from '../summary/collector.js';
import { buildSummary, renderSummary } from '../summary/render.js';
import { keepBytesFor, summarize } from '../summary/summarize.js';
import { DEFAULT_BUDGET } from '../summary-budget.js';

/** How long a run request waits before it answers with the output so far. */
export const DEFAULT_WAIT_MS = 50_000;
/** How often progress is sent. */
const PROGRESS_EVERY_MS = 1000;
/** Most bytes of the child's own stdout (the summary) and stderr kept. */
const MAX_TEXT = 1 << 20;
/** Most bytes of a running output read for a partial summary. */
const MAX_PARTIAL = 8 << 20;

export interface RunsOptions {
  runDir: string;
  env: NodeJS.ProcessEnv;
  scriptPath?: string;
}

export interface StartOptions {
  command: string;
  /** Absolute working directory. */
  cwd: string;
  timeout?: string;
  waitMs: number;
  budget?: number;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Sends one progress notification (only when the client gave a progress token). */
  progress: ((progress: number, message: string) => void) | undefined;
}

export interface ToolText {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

interface Run {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Longest argument Linux passes to a program (MAX_ARG_STRLEN, its NUL included). */
const MAX_ARG_BYTES = 128 * 1024;

export class McpRuns {
  /** Runs whose request has not been answered yet: stopped when the client goes. */
  private readonly pending = new Set<Run>();

  constructor(private readonly opts: RunsOptions) {}

  /** Starts a run and answers when it ends, is cancelled, or its wait has passed. */
  start(o: StartOptions): Promise<ToolText> {
    checkDirectory(o.cwd);
    if (o.command.includes('\0'))
      throw new CtxwrapError(
        'command holds a NUL byte, which no shell command can; send the command as text',
      );
    // It reaches the shell as one argument, which Linux caps at 128 KiB (MAX_ARG_STRLEN).
    const bytes = Buffer.byteLength(o.command);
    if (bytes >= MAX_ARG_BYTES)
      throw new CtxwrapError(
        `the command is ${formatBytes(bytes)} long; a shell takes a command line of at most 128 KiB (one argument): write it to a script file and run that`,
      );
    // Where nothing can be stored, the child passes the output through: it is summarised here
    // (bounded, cleaned, masked) as it streams, never handed back raw.
    let unstored: Collector | undefined;
    try {
      ensureRunDir(this.opts.runDir);
    } catch {
      unstored = new Collector({ keepBytes: keepBytesFor(o.budget ?? DEFAULT_BUDGET) });
    }
    const script = this.opts.scriptPath ?? process.argv[1] ?? '';
    const args = [
      script,
      '--run-dir',
      this.opts.runDir,
      ...(o.timeout !== undefined ? ['--timeout', o.timeout] : []),
      ...(o.budget !== undefined ? ['--budget', String(o.budget)] : []),
      '-c',
      o.command,
    ];
    const started = Date.now();
    const child = spawn(process.execPath, args, {
      cwd: o.cwd,
      env: ownNodeEnv(this.opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      if (into.reduce((n, b) => n + b.length, 0) < MAX_TEXT) into.push(chunk);
    };
    child.stdout?.on('data', unstored ? (chunk: Buffer) => unstored.push(chunk) : keep(out));
    child.stderr?.on('data', keep(err));
    let exitCode: number | null = null;
    const exited = new Promise<void>((done) => {
      child.on('close', (code, signal) => {
        exitCode = code ?? (signal ? 128 : null);
        done();
      });
      child.on('error', () => done());
    });
    const run: Run = { child, exited };
    this.pending.add(run);
    const watch = new OutputWatch(this.opts.runDir, child.pid ?? -1, started);

    return new Promise<ToolText>((answer) => {
      let answered = false;
      const finish = (result: ToolText) => {
        if (answered) return;
        answered = true;
        this.pending.delete(run);
        clearInterval(ticker);
        clearTimeout(waiter);
        o.signal.removeEventListener('abort', onAbort);
        answer(result);
      };
      const ticker = setInterval(() => {
        if (!o.progress) return;
        const seen = watch.poll();
        const elapsed = Date.now() - started;
        o.progress(
          elapsed / 1000,
          `${formatDuration(elapsed)} · ${formatCount(seen.lines)} lines · ${formatBytes(seen.bytes)}`,
        );
      }, PROGRESS_EVERY_MS);
      // Past the wait, answer with the output so far, once the run has an id to read it by
      // later (a slow start may not have recorded it yet).
      let waiter: NodeJS.Timeout;
      const answerSoFar = () => {
        if (watch.poll().id === undefined && Date.now() - started < o.waitMs + 10_000) {
          waiter = setTimeout(answerSoFar, 250);
          return;
        }
        finish(this.partial(watch, started, o));
      };
      waiter = setTimeout(answerSoFar, o.waitMs);
      const onAbort = () => {
        stop(child);
        finish({
          content: [{ type: 'text', text: 'ctxwrap: the run was cancelled; the command was stopped' }],
        });
      };
      o.signal.addEventListener('abort', onAbort);
      if (o.signal.aborted) onAbort();
      void exited.then(() =>
        finish(endedAnswer({ pid: child.pid, exitCode, out, err, unstored, started }, o)),
      );
    });
  }

  /** Stops every run whose request is still open and waits for them to end. */
  async stopPending(graceMs = 10_000): Promise<void> {
    const runs = [...this.pending];
    for (const run of runs) stop(run.child);
    await Promise.race([
      Promise.all(runs.map((r) => r.exited)),
      new Promise((done) => setTimeout(done, graceMs).unref()),
    ]);
  }

  /** The answer when the wait has passed: the output so far, and how to get the rest. */
  private partial(watch: OutputWatch, started: number, o: StartOptions): ToolText {
    const seen = watch.poll();
    const elapsed = Date.now() - started;
    if (seen.id === undefined || seen.path === undefined)
      return {
        content: [
          {
            type: 'text',
            text: `[ctxwrap: the command is still running after ${formatDuration(elapsed)}; its result is not recorded yet: see the list tool]\n`,
          },
        ],
      };
    const bytes = readUpTo(seen.path, MAX_PARTIAL);
    const summary = summarize(
      bytes,
      {
        id: seen.id,
        path: seen.path,
        exitCode: null,
        durationMs: elapsed,
        status: `still running after ${formatDuration(elapsed)}`,
      },
      { budget: o.budget ?? DEFAULT_BUDGET },
    );
    return {
      content: [
        {
          type: 'text',
          text: `${summary}[ctxwrap: ${seen.id} is still running and stores all its output; read it by id (read tool) once list shows it complete]\n`,
        },
      ],
    };
  }
}

/** SIGTERM to the ctxwrap child: it stops the command's process group and stores what it has. */
function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

function checkDirectory(cwd: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    throw new CtxwrapError(
      `cwd ${cwd} does not exist; give an existing directory (or none, for the server's)`,
    );
  }
  if (!isDir) throw new CtxwrapError(`cwd ${cwd} is not a directory; give a directory`);
}

/** Follows a run's stored output: finds its result by the ctxwrap child's pid, counts lines as they come. */
class OutputWatch {
  id: string | undefined;
  path: string | undefined;
  private bytes = 0;
  private lines = 0;

  constructor(
    private readonly runDir: string,
    private readonly pid: number,
    private readonly started: number,
  ) {}

  poll(): { id?: string; path?: string; bytes: number; lines: number } {
    if (this.id === undefined) this.find();
    if (this.path !== undefined) this.count(this.path);
    return {
      ...(this.id !== undefined ? { id: this.id } : {}),
      ...(this.path !== undefined ? { path: this.path } : {}),
      bytes: this.bytes,
      lines: this.lines,
    };
  }

  private find(): void {
    const dir = runDirAt(this.runDir);
    let names: string[];
    try {
      names = readdirSync(dir.results);
    } catch {
      return;
    }
    for (const name of names) {
      const m = /^([a-z0-9][a-z0-9-]{0,23}_[0-9a-f]{8})\.json$/.exec(name);
      if (!m) continue;
      const file = join(dir.results, name);
      try {
        if (statSync(file).mtimeMs < this.started - 2000) continue;
        const meta = parseMeta(readUtf8(file), m[1] as string);
        if (meta?.pid === this.pid) {
          this.id = meta.id;
          this.path = resultPaths(dir, meta.id).output;
          return;
        }
      } catch {
        /* gone or being written: try again next time */
      }
    }
  }

  private count(path: string): void {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return;
    }
    try {
      const buf = Buffer.allocUnsafe(1 << 16);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, this.bytes);
        if (n <= 0) break;
        for (let i = 0; i < n; i++) if (buf[i] === 10) this.lines++;
        this.bytes += n;
      }
    } finally {
      closeSync(fd);
    }
  }
}

function readUtf8(file: string): string {
  return readUpTo(file, 1 << 20).toString('utf8');
}

function readUpTo(file: string, max: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(max);
    let got = 0;
    while (got < max) {
      const n = readSync(fd, buf, got, max - got, got);
      if (n <= 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The answer once the run has ended: its summary (made here when nothing could be stored), or why there is none. */
function endedAnswer(
  r: {
    pid: number | undefined;
    exitCode: number | null;
    out: Buffer[];
    err: Buffer[];
    unstored: Collector | undefined;
    started: number;
  },
  o: StartOptions,
): ToolText {
  const text = Buffer.concat(r.out).toString('utf8');
  const warnings = Buffer.concat(r.err).toString('utf8');
  if (r.pid === undefined || (r.exitCode === null && text === ''))
    return {
      content: [
        { type: 'text', text: `ctxwrap: could not start a run (${warnings.trim() || 'no process'})` },
      ],
      isError: true,
    };
  if (r.unstored) {
    const facts = {
      id: 'not-stored',
      path: '(not stored)',
      exitCode: r.exitCode ?? 1,
      durationMs: Date.now() - r.started,
    };
    const summary = renderSummary(
      buildSummary(r.unstored.end(), facts, { budget: o.budget ?? DEFAULT_BUDGET }),
    );
    return { content: [{ type: 'text', text: summary + warnings }] };
  }
  // The run refused its arguments (a bad timeout, say): the command never ran.
  if (text === '' && r.exitCode === EXIT_USAGE && warnings.startsWith('ctxwrap: '))
    return { content: [{ type: 'text', text: warnings.trim() }], isError: true };
  return { content: [{ type: 'text', text: text + warnings } as const] };
}
