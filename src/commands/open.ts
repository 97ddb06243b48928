/**
 * `ctxwrap open <id>`: a person reads a stored output whole, through `$PAGER` (default
 * `less -R`, which keeps its colours). When stdout is not a terminal the file is streamed as is.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';
import { record } from '../store/ledger.js';
import { openStoredOutput, readMeta, resultPaths } from '../store/results.js';
import { openRunDir } from '../store/run-dir.js';

const DEFAULT_PAGER = 'less -R';

export interface OpenOptions {
  runDir: string;
  id: string;
  /** True when stdout is a terminal: page; otherwise stream. */
  isTTY: boolean;
  /** `$PAGER`; empty or unset means `less -R`. */
  pager: string | undefined;
  /** Where the stream goes when stdout is not a terminal. */
  output: NodeJS.WritableStream;
}

export async function openResult(opts: OpenOptions): Promise<number> {
  const dir = openRunDir(opts.runDir);
  const paths = resultPaths(dir, opts.id);
  const meta = readMeta(dir, opts.id);
  // Opened without following a link: a file planted in its place is refused.
  const fd = openStoredOutput(dir, meta.id);
  if (!opts.isTTY) {
    let bytes = 0;
    const file = createReadStream('', { fd });
    file.on('data', (chunk) => {
      bytes += chunk.length;
    });
    try {
      await pipeline(file, opts.output, { end: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
    record(dir, { kind: 'open', id: meta.id, bytes });
    return 0;
  }
  closeSync(fd);
  const pager = opts.pager && opts.pager.trim() !== '' ? opts.pager : DEFAULT_PAGER;
  // The pager string is the user's own shell words; the path goes in as "$1", never spliced in.
  const r = spawnSync('/bin/sh', ['-c', `${pager} "$1"`, 'ctxwrap-open', paths.output], { stdio: 'inherit' });
  if (r.error) throw new CtxwrapError(`cannot start the pager '${pager}': ${r.error.message}`, EXIT_FAILURE);
  return r.status ?? 128 + 1;
}
