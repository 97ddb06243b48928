/**
 * Summarising a result whose output is already stored (the agent's shell wrote it, or opencode
 * handed it over after the call): capture's finishResult, with what the reader could not store
 * counted in, and the summary printed (or the one line for a view the agent filtered).
 */
import { statSync } from 'node:fs';
import { formatBytes, formatCount } from '../format.js';
import { storageFull } from '../store/output-file.js';
import { readMeta, resultPaths, writeAtomic, writeMeta } from '../store/results.js';
import { openRunDir, type RunDir } from '../store/run-dir.js';
import { finishResult } from './finish-result.js';

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
    lastWork: true,
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

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
