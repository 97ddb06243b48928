/**
 * The end of a run the agent's own shell makes (the in-shell hook; the hook allocates it, see
 * store/allocate-result.ts): `finishShellResult` (hidden subcommand `ctxwrap _finish`) waits for
 * the reader, has the stored output summarised and the metadata completed, and returns the
 * command's exact exit status.
 */
import { readFileSync, rmSync } from 'node:fs';
import { type FinishOptions, summariseStored } from '../capture/summarise-stored.js';
import { resolveRunConfig } from '../config.js';
import { resultPaths } from '../store/results.js';
import { runDirAt } from '../store/run-dir.js';

/**
 * Summarises the stored output of a run the agent's shell made and completes its metadata,
 * through capture's finishResult (the file is read whole: the shell has already written it).
 * Returns the command's exit status whatever happens: an error costs the summary, never the status.
 */
function finishShellResult(opts: FinishOptions): number {
  try {
    let rest: number | undefined;
    if (opts.reader !== undefined) {
      waitForReader(opts.reader, 3000);
      const output = resultPaths(runDirAt(opts.runDir), opts.id).output;
      // The reader's pid came to the shell through this file, the output through the FIFO (see
      // hook/in-shell.ts): neither is needed any more.
      rmSync(`${output}.pid`, { force: true });
      rmSync(`${output}.fifo`, { force: true });
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
