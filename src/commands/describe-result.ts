/** How `list`, `clean`, `stats`, `read` and `show` describe a result: its age, its size, a stored file cut short. */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { formatBytes } from '../format.js';
import { countNewlinesBetween } from '../read/line-reader.js';
import type { ResultMeta } from '../store/results.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';

/** Cuts text to `max` characters, marking the cut. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A compact age: 45s, 12m, 5h, 3d. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** Bytes of a result's stored output: the file's size (a run cut short stored less than it printed). */
export function storedBytes(dir: RunDir, meta: ResultMeta): number {
  try {
    return lstatSync(resultPaths(dir, meta.id).output).size;
  } catch {
    return 0;
  }
}

/** A result whose stored file holds less than the command printed (disk full, a size limit, truncated since). */
export interface StorageCut {
  stored: number;
  total: number;
  reason?: string;
}

/**
 * How a result's stored output falls short of the whole, from its metadata (`storedBytes`,
 * `cutShort`) and the file's size now; undefined when the file holds all of it.
 */
export function storageCut(meta: ResultMeta, size: number): StorageCut | undefined {
  if (meta.state !== 'complete' || typeof meta.bytes !== 'number' || size >= meta.bytes) return undefined;
  const reason = meta.cutShort?.replace(/^stored only \d+ of \d+ bytes: /, '');
  return {
    stored: size,
    total: meta.bytes,
    ...(meta.storedBytes !== undefined && reason
      ? { reason }
      : { reason: 'the stored file is shorter than recorded' }),
  };
}

/** One line on a cut: `only 512 kB of the 2.0 MB output is stored (no space left on device)`. */
export function storageCutText(cut: StorageCut): string {
  return `only ${formatBytes(cut.stored)} of the ${formatBytes(cut.total)} output is stored${cut.reason ? ` (${cut.reason})` : ''}`;
}

/** Lines of a stored file: newlines, and a last line without one. */
export function countStoredLines(path: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return countNewlinesBetween(fd, 0, size) + (last[0] === 10 ? 0 : 1);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
