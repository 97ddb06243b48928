/**
 * The two halves of a run the agent's own shell makes (the in-shell hook): `allocateResult`
 * picks the id and the file before the command runs and records it as running;
 * `finishShellResult` (hidden subcommand `ctxwrap _finish`) has capture's finishResult summarise
 * the file the shell wrote and complete the metadata, and returns the command's exact exit status.
 */
import { readFileSync } from 'node:fs';
import { finishResult } from '../capture/finish-result.js';
import { resolveRunConfig } from '../config.js';
import { formatBytes, formatCount } from '../format.js';
import { readMeta, resultPaths, writeAtomic, writeMeta } from '../store/results.js';
import { openRunDir } from '../store/run-dir.js';

interface FinishOptions {
  runDir: string;
  id: string;
  /** The command's exit status, as the shell reported it (`$?`). */
  status: number;
  /** The agent saw the output through `| tail`/`| head`: print only the line with the id. */
  view?: string;
  /** The pid of the reader appending the command's output to the file: waited for (up to 3 s). */
  reader?: number;
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
function finishShellResult(opts: FinishOptions): number {
  try {
    if (opts.reader !== undefined) waitForReader(opts.reader, 3000);
    finish(opts);
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

function finish(opts: FinishOptions): void {
  const dir = openRunDir(opts.runDir);
  const meta = readMeta(dir, opts.id);
  const finished = finishResult({
    dir,
    meta,
    ending: { exitCode: opts.status, reason: 'exit' },
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
  let text = finished.text;
  if (opts.view !== undefined) {
    // The agent saw the lines through its own filter: the record holds the one line it was shown.
    const done = finished.meta;
    text = `[ctxwrap ${opts.id}] the lines above are \`${opts.view}\` of ${formatCount(done.lines ?? 0)} lines (${formatBytes(done.bytes ?? 0)}) · full output: ${resultPaths(dir, opts.id).output} · ctxwrap read ${opts.id} --lines 1-200\n`;
    done.summaryBytes = Buffer.byteLength(text);
    writeAtomic(resultPaths(dir, opts.id).summary, text);
    writeMeta(dir, done);
  }
  if (finished.storeErrors.length > 0) throw new Error(finished.storeErrors.join('; '));
  opts.print(text);
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
    print: opts.print,
  });
}
