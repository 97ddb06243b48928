/**
 * The two halves of a run the agent's own shell makes (the in-shell hook): `allocateResult`
 * picks the id and the file before the command runs and records it as running;
 * `finishShellResult` (hidden subcommand `ctxwrap _finish`) has capture's finishResult summarise
 * the file the shell wrote and complete the metadata, and returns the command's exact exit status.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { finishResult } from '../capture/finish-result.js';
import { resolveRunConfig } from '../config.js';
import { formatBytes, formatCount } from '../format.js';
import { newId } from '../store/ids.js';
import { storageFull } from '../store/output-file.js';
import { type ResultMeta, readMeta, resultPaths, writeAtomic, writeMeta } from '../store/results.js';
import { ensureRunDir, openRunDir, type RunDir, runDirAt } from '../store/run-dir.js';

export interface Allocated {
  id: string;
  /** The file the agent's shell redirects the command's output into. */
  output: string;
}

/** A new result id and the path of its output file (nothing is written yet). */
export function planResult(runDir: string, name: string): Allocated {
  const id = newId(name);
  return { id, output: resultPaths(runDirAt(runDir), id).output };
}

/** Records a planned result as running (making the run directory if needed). Throws on a store error. */
export function allocateResult(opts: {
  runDir: string;
  id: string;
  /** The command as the shell runs it: `[shell, '-c', text]`. */
  command: string[];
  cwd: string;
  /** The process the run belongs to (the agent), to tell a live run from an abandoned one. */
  pid: number;
  /** When the command started, if not now (ms since the epoch). */
  startedMs?: number;
}): Allocated {
  const dir = ensureRunDir(opts.runDir);
  const id = opts.id;
  const meta: ResultMeta = {
    version: 1,
    id,
    command: opts.command,
    source: 'shell',
    cwd: opts.cwd,
    startedAt: new Date(opts.startedMs ?? Date.now()).toISOString(),
    state: 'running',
    pid: opts.pid,
  };
  writeMeta(dir, meta);
  return { id, output: resultPaths(dir, id).output };
}

export interface FinishOptions {
  runDir: string;
  id: string;
  /** The command's exit status, as the shell reported it (`$?`). */
  status: number;
  /** The agent saw the output through `| tail`/`| head`: print only the line with the id. */
  view?: string;
  /** The pid of the reader appending the command's output to the file: waited for (up to 3 s). */
  reader?: number;
  /** The cap on stored bytes the wrapper's reader had, to name it when the file reached it. */
  maxOutput?: number;
  budget: number;
  tailRatio: number;
  inlineThreshold: number;
  print: (text: string) => void;
}

/**
 * Summarises the stored output of a run the agent's shell made and completes its metadata,
 * through capture's finishResult (the file is read whole: the shell has already written it).
 * Returns the command's exit status whatever happens: an error costs the summary, never the status.
 */
export function finishShellResult(opts: FinishOptions): number {
  try {
    let rest: number | undefined;
    if (opts.reader !== undefined) {
      waitForReader(opts.reader, 3000);
      const output = resultPaths(runDirAt(opts.runDir), opts.id).output;
      // The reader's pid came to the shell through this file (see hook/in-shell.ts).
      rmSync(`${output}.pid`, { force: true });
      rest = notStored(`${output}.rest`);
    }
    summariseStored(opts, rest);
  } catch (error) {
    opts.print(`[ctxwrap: no summary for ${opts.id}: ${(error as Error).message}]\n`);
  }
  return opts.status;
}

/**
 * Waits until the reader has appended everything: it ends when the command's side of the pipe
 * is closed. It is the agent shell's child, so once done it is a zombie until the shell reaps
 * it: a zombie counts as done. A process that still holds the pipe (a daemon the command left)
 * keeps it going: past the deadline the summary is of what is stored so far.
 */
function waitForReader(pid: number, deadlineMs: number): void {
  if (!Number.isInteger(pid) || pid <= 1) return;
  const end = Date.now() + deadlineMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < end) {
    let state: string | undefined;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
    }
    if (state === 'Z' || state === 'X') return;
    Atomics.wait(pause, 0, 0, 5);
  }
}

/** The bytes the reader drained without storing them (counted by `wc -c` into `file`), if any. */
function notStored(file: string): number | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    rmSync(file, { force: true });
    const n = Number.parseInt(text.trim(), 10);
    return Number.isSafeInteger(n) && n >= 0 ? n : 0;
  } catch {
    return undefined;
  }
}

/** Why the reader stopped storing: the cap when the file reached it, else the file system. */
function whyCut(dir: RunDir, stored: number, maxOutput: number | undefined): string {
  if (maxOutput !== undefined && maxOutput > 0 && stored > maxOutput - 1024)
    return `the cap of ${formatBytes(maxOutput)} on a stored output was reached (--max-output, CTXWRAP_MAX_OUTPUT)`;
  return storageFull(dir.results) ?? 'the result file could not grow (a full disk or a file size limit)';
}

/**
 * Summarises a stored result and prints the summary; throws on a store error. `rest`: the bytes
 * the reader drained without storing them, when it stopped storing.
 */
export function summariseStored(opts: FinishOptions, rest?: number): void {
  const dir = openRunDir(opts.runDir);
  const meta = readMeta(dir, opts.id);
  const stored = rest === undefined ? 0 : fileSize(resultPaths(dir, opts.id).output);
  const reason = rest === undefined ? undefined : whyCut(dir, stored, opts.maxOutput);
  const total = stored + (rest ?? 0);
  const finished = finishResult({
    dir,
    meta,
    ending: {
      exitCode: opts.status,
      reason: 'exit',
      ...(reason !== undefined
        ? {
            // What the reader held when it could not write is in neither count: "at least".
            status: `output cut short: stored only ${formatBytes(stored)} of at least ${formatBytes(total)}`,
            cutShort: `stored only ${stored} of ${total} bytes: ${reason}`,
          }
        : {}),
    },
    childExitCode: opts.status > 128 ? null : opts.status,
    signal: null,
    durationMs: Math.max(0, Date.now() - Date.parse(meta.startedAt)),
    options: {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: true,
    },
  });
  if (reason !== undefined) {
    // The summary is of what was stored; the record says how much more the command wrote.
    Object.assign(finished.meta, { bytes: total, storedBytes: stored });
    writeMeta(dir, finished.meta);
  }
  let text = finished.text;
  if (opts.view !== undefined) {
    // The agent saw the lines through its own filter: the record holds the one line it was shown.
    const done = finished.meta;
    text = `[ctxwrap ${opts.id}] the lines above are \`${opts.view}\` of ${formatCount(done.lines ?? 0)} lines (${formatBytes(done.bytes ?? 0)}) · full output: ${resultPaths(dir, opts.id).output} · ctxwrap read ${opts.id} --lines 1-200\n`;
    done.summaryBytes = Buffer.byteLength(text);
    writeAtomic(resultPaths(dir, opts.id).summary, text);
    writeMeta(dir, done);
  }
  opts.print(text);
  // The summary is shown even when it could not be stored (a full disk); the agent is told why.
  if (finished.storeErrors.length > 0)
    opts.print(
      `[ctxwrap: ${opts.id} is not fully stored: ${[...new Set(finished.storeErrors)].join('; ')}]\n`,
    );
}

/** `ctxwrap _finish <id> <status> [--run-dir DIR] [--view FILTER]`: the command line's plain options to `finishShellResult`. */
export function finishCommand(opts: {
  id: string;
  status: string;
  runDir?: string;
  view?: string;
  reader?: string;
  env: NodeJS.ProcessEnv;
  print: (text: string) => void;
}): number {
  const status = /^\d{1,3}$/.test(opts.status) ? Number(opts.status) : 1;
  let config: ReturnType<typeof resolveRunConfig>;
  try {
    config = resolveRunConfig(opts.runDir !== undefined ? { runDir: opts.runDir } : {}, opts.env);
  } catch (error) {
    // A bad CTXWRAP_* value costs the summary's options, never the command's status.
    opts.print(`[ctxwrap: ${(error as Error).message}; defaults used]\n`);
    config = resolveRunConfig(opts.runDir !== undefined ? { runDir: opts.runDir } : {}, {});
  }
  return finishShellResult({
    runDir: config.runDir,
    id: opts.id,
    status,
    ...(opts.view !== undefined ? { view: opts.view } : {}),
    ...(opts.reader !== undefined && /^\d{1,9}$/.test(opts.reader) ? { reader: Number(opts.reader) } : {}),
    budget: config.budget,
    tailRatio: config.tailRatio,
    inlineThreshold: config.inlineThreshold,
    maxOutput: config.maxOutputBytes,
    print: opts.print,
  });
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
