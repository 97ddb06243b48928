/**
 * Where indexes live and how they are kept: `<run_dir>/index/<id>.idx`, built lazily by the
 * first search that needs one, rebuilt when the output changed (size or mtime) or when the file
 * is unusable, written atomically (temporary file + rename) so that parallel searches and
 * crashes leave either no index or a whole one. A running result is indexed in memory only.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ID_PATTERN, validateId } from '../store/ids.js';
import type { Entry } from '../store/registry.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';
import { buildIndex, type Coverage } from './build.js';
import { IndexReader, UnusableIndex } from './index-file.js';

export function indexDir(dir: RunDir): string {
  return join(dir.root, 'index');
}

export function indexPath(dir: RunDir, id: string): string {
  return join(indexDir(dir), `${validateId(id)}.idx`);
}

/** An index opened for a search, and how it was had. */
export interface Opened {
  reader: IndexReader;
  /** True when it had to be built (missing, stale or unusable). */
  built: boolean;
}

/**
 * Opens the index of a result, building it when it is missing, stale or unusable. Returns
 * undefined when the output itself cannot be read (deleted under us).
 */
export function openIndex(
  dir: RunDir,
  entry: Entry,
  coverage: Coverage,
  rebuild = false,
): Opened | undefined {
  const output = resultPaths(dir, entry.meta.id).output;
  const path = indexPath(dir, entry.meta.id);
  let stamp: { size: number; mtimeMs: number };
  try {
    const st = statSync(output);
    stamp = { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
  if (!rebuild) {
    try {
      return { reader: IndexReader.open(path, stamp), built: false };
    } catch (error) {
      if (!(error instanceof UnusableIndex) && (error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw error;
    }
  }
  let built: ReturnType<typeof buildIndex>;
  try {
    built = buildIndex(output, coverage);
  } catch {
    return undefined;
  }
  if (entry.state !== 'running') saveIndex(dir, path, built.data);
  return { reader: IndexReader.fromBuffer(built.data, built.stamp), built: true };
}

/** Writes an index atomically; a failure (read-only run directory, disk full) only costs speed. */
function saveIndex(dir: RunDir, path: string, data: Buffer): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;
  try {
    mkdirSync(indexDir(dir), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Temporary files older than this are leftovers of a crash. */
const STALE_TMP_MS = 10 * 60_000;

/**
 * Removes what crashes and deleted results leave behind: temporary files of interrupted
 * writes, and indexes of results whose metadata is gone. Never fails a search.
 */
export function sweepIndexes(dir: RunDir, known: ReadonlySet<string>, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(indexDir(dir));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(indexDir(dir), name);
    try {
      if (name.includes('.tmp-')) {
        if (now - statSync(path).mtimeMs > STALE_TMP_MS) unlinkSync(path);
      } else if (name.endsWith('.idx')) {
        const id = name.slice(0, -'.idx'.length);
        if (ID_PATTERN.test(id) && !known.has(id)) unlinkSync(path);
      }
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}
