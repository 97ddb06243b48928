/** `ctxwrap show <id>`: print a result's summary again, byte for byte. */
import { closeSync, createReadStream, fstatSync } from 'node:fs';
import { stateOf } from '../store/registry.js';
import {
  openStoredOutput,
  type ResultMeta,
  readMeta,
  readStoredText,
  resultPaths,
} from '../store/results.js';
import { openRunDir } from '../store/run-dir.js';
import { Collector } from '../summary/collector.js';
import { buildSummary, renderSummary } from '../summary/render.js';
import { keepBytesFor } from '../summary/summarize.js';
import { DEFAULT_BUDGET, DEFAULT_TAIL_RATIO } from '../summary-budget.js';
import { storageCut, storageCutText } from './describe-result.js';

export interface ShowOptions {
  runDir: string;
  id: string;
  print: (text: string) => void;
}

export async function showResult(opts: ShowOptions): Promise<number> {
  const dir = openRunDir(opts.runDir);
  const meta = readMeta(dir, opts.id);
  const paths = resultPaths(dir, opts.id);
  const saved = meta.state === 'complete' ? readStoredText(paths.summary) : undefined;
  const fd = openStoredOutput(dir, opts.id);
  const cut = storageCut(meta, fstatSync(fd).size);
  if (saved !== undefined) {
    closeSync(fd);
    // The summary was made from the whole output as it ran; the file now holds less of it.
    const note = cut
      ? `[ctxwrap: ${opts.id}: ${storageCutText(cut)}; read and search see only that part]\n`
      : '';
    opts.print(saved + note);
    return 0;
  }
  opts.print(await summarizeStored(paths.output, meta, fd));
  return 0;
}

/**
 * Summarises a stored output that has no saved summary: a run still going, or one cut off.
 * `fd`, when given, is the output already opened (and closed here); otherwise `path` is opened.
 */
async function summarizeStored(path: string, meta: ResultMeta, fd?: number): Promise<string> {
  const budget = meta.summary?.budget ?? DEFAULT_BUDGET;
  const collector = new Collector({ keepBytes: keepBytesFor(budget) });
  let bytes = 0;
  for await (const chunk of fd === undefined ? createReadStream(path) : createReadStream('', { fd })) {
    collector.push(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  const cut = meta.state === 'complete' ? storageCut(meta, bytes) : undefined;
  const status =
    meta.state === 'complete'
      ? [meta.status, cut ? `cut short: ${storageCutText(cut)}` : undefined].filter(Boolean).join('; ') ||
        undefined
      : stateOf(meta) === 'incomplete'
        ? `incomplete: ctxwrap stopped before the command ended; ${bytes} bytes were captured`
        : 'still running';
  const started = Date.parse(meta.startedAt);
  return renderSummary(
    buildSummary(
      collector.end(),
      {
        id: meta.id,
        path,
        exitCode: meta.state === 'complete' ? (meta.exitCode ?? null) : null,
        durationMs: meta.durationMs ?? (Number.isNaN(started) ? 0 : Date.now() - started),
        ...(status ? { status } : {}),
        ...(meta.source === 'stdin' ? { fromStdin: true } : {}),
      },
      {
        budget,
        tailRatio: meta.summary?.tailRatio ?? DEFAULT_TAIL_RATIO,
        inlineThreshold: meta.summary?.inlineThreshold ?? budget,
        redact: meta.summary?.redact ?? true,
      },
    ),
  );
}
