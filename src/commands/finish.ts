/**
 * The two halves of a run the agent's own shell makes (the in-shell hook): `allocateResult`
 * picks the id and the file before the command runs and records it as running;
 * `finishResult` (hidden subcommand `ctxwrap finish`) summarises the file the shell wrote,
 * completes the metadata and returns the command's exact exit status. A thin layer over the
 * store and the summary engine; the capture helper's finishResult seam may replace it.
 */
import { closeSync, readSync } from 'node:fs';
import { resolveRunConfig } from '../config.js';
import { formatBytes, formatCount } from '../format.js';
import { newId } from '../store/ids.js';
import {
  lastRunOf,
  openStoredOutput,
  type ResultMeta,
  readFingerprint,
  readMeta,
  resultPaths,
  setLastRun,
  writeAtomic,
  writeFingerprint,
  writeMeta,
} from '../store/results.js';
import { ensureRunDir, openRunDir, runDirAt } from '../store/run-dir.js';
import { Collector } from '../summary/collector.js';
import { buildSummary, type RunFacts, renderSummary } from '../summary/render.js';
import { hintWords } from '../summary/salience.js';
import { keepBytesFor } from '../summary/summarize.js';

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
}): Allocated {
  const dir = ensureRunDir(opts.runDir);
  const id = opts.id;
  const meta: ResultMeta = {
    version: 1,
    id,
    command: opts.command,
    source: 'shell',
    cwd: opts.cwd,
    startedAt: new Date().toISOString(),
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
  budget: number;
  tailRatio: number;
  inlineThreshold: number;
  print: (text: string) => void;
}

const CHUNK = 1 << 16;

/**
 * Summarises the stored output of a run the agent's shell made and completes its metadata.
 * Returns the command's exit status whatever happens: an error costs the summary, never the status.
 */
export function finishResult(opts: FinishOptions): number {
  try {
    finish(opts);
  } catch (error) {
    opts.print(`[ctxwrap: no summary for ${opts.id}: ${(error as Error).message}]\n`);
  }
  return opts.status;
}

function finish(opts: FinishOptions): void {
  const dir = openRunDir(opts.runDir);
  const meta = readMeta(dir, opts.id);
  const paths = resultPaths(dir, opts.id);
  const previousId = lastRunOf(dir, meta.cwd, meta.command);
  const previous = previousId ? readFingerprint(dir, previousId) : undefined;
  const collector = new Collector({
    hints: hintWords(meta.command.slice(2)),
    keepBytes: keepBytesFor(opts.budget),
    ...(previous ? { previous } : {}),
  });
  let bytes = 0;
  const fd = openStoredOutput(dir, opts.id);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      collector.push(Buffer.from(buf.subarray(0, n)));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  const collected = collector.end();
  const durationMs = Math.max(0, Date.now() - Date.parse(meta.startedAt));
  const facts: RunFacts = {
    id: opts.id,
    path: paths.output,
    exitCode: opts.status,
    durationMs,
    ...(previousId ? { previousId } : {}),
  };
  const text =
    opts.view === undefined
      ? renderSummary(
          buildSummary(collected, facts, {
            budget: opts.budget,
            tailRatio: opts.tailRatio,
            inlineThreshold: opts.inlineThreshold,
            redact: true,
          }),
        )
      : `[ctxwrap ${opts.id}] the lines above are \`${opts.view}\` of ${formatCount(collected.lines)} lines (${formatBytes(bytes)}) · full output: ${paths.output} · ctxwrap read ${opts.id} --lines 1-200\n`;
  Object.assign(meta, {
    state: 'complete',
    durationMs,
    exitCode: opts.status,
    childExitCode: opts.status > 128 ? null : opts.status,
    endReason: 'exit',
    bytes,
    lines: collected.lines,
    binary: collected.binary,
    summary: {
      budget: opts.budget,
      tailRatio: opts.tailRatio,
      inlineThreshold: opts.inlineThreshold,
      redact: true,
      ...(previousId ? { previousId } : {}),
    },
    summaryBytes: Buffer.byteLength(text),
  } satisfies Partial<ResultMeta>);
  if (collected.keyRanges.length > 0) meta.keyRanges = collected.keyRanges;
  writeAtomic(paths.summary, text);
  writeFingerprint(dir, opts.id, collected.fingerprint);
  writeMeta(dir, meta);
  setLastRun(dir, meta.cwd, meta.command, opts.id);
  opts.print(text);
}

/** `ctxwrap _finish <id> <status> [--run-dir DIR] [--view FILTER]`: the command line's plain options to `finishResult`. */
export function finishCommand(opts: {
  id: string;
  status: string;
  runDir?: string;
  view?: string;
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
  return finishResult({
    runDir: config.runDir,
    id: opts.id,
    status,
    ...(opts.view !== undefined ? { view: opts.view } : {}),
    budget: config.budget,
    tailRatio: config.tailRatio,
    inlineThreshold: config.inlineThreshold,
    print: opts.print,
  });
}
