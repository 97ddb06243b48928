/**
 * Removing results: those past their time to live (`ctxwrap clean`, and opportunistically at
 * most once an hour), or all of them (`clean --all`). A result whose ctxwrap is still running is
 * never removed, and only files ctxwrap itself names are ever deleted: an id's files in
 * `tool_results/`, the `last/` pointers, the ledger and the prune stamp, and the `index/`
 * directory that ctxwrap 0.1's search kept (tokens of every output, lowercased; no search writes
 * it any more). Other directories are removed only when that leaves them empty.
 */
import { lstatSync, readdirSync, rmdirSync, rmSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTtl } from '../env.js';
import { ledgerPath } from './ledger.js';
import { type Entry, listEntries } from './registry.js';
import { resultFiles } from './result-files.js';
import { writeAtomic } from './results.js';
import type { RunDir } from './run-dir.js';

/** Files of no result (a crash between creating an output and its metadata) wait this long. */
const ORPHAN_GRACE_MS = 60_000;
/** Opportunistic pruning runs at most this often per run directory. */
const PRUNE_EVERY_MS = 3_600_000;

interface CleanTarget {
  id: string;
  /** The registry entry; absent for files that belong to no result. */
  entry?: Entry;
  /** Paths to delete, the metadata first (so that the result leaves the registry at once). */
  files: string[];
  bytes: number;
}

export interface CleanPlan {
  targets: CleanTarget[];
  /** Results that would have gone but are still being written. */
  running: Entry[];
}

export interface CleanRequest {
  /** Remove finished results that started longer ago than this. */
  olderThanMs: number;
  /** Remove every result (except running ones) and the run directory's other files. */
  all?: boolean;
  now?: number;
}

interface StoredFile {
  path: string;
  stat: Stats;
}

/** The files of `tool_results/`, by the id they belong to. */
function filesById(dir: RunDir): Map<string, StoredFile[]> {
  const byId = new Map<string, StoredFile[]>();
  for (const { id, path } of resultFiles(dir)) {
    try {
      const stat = lstatSync(path);
      if (!stat.isFile()) continue;
      const list = byId.get(id) ?? [];
      list.push({ path, stat });
      byId.set(id, list);
    } catch {
      /* removed meanwhile */
    }
  }
  return byId;
}

function targetOf(dir: RunDir, id: string, files: StoredFile[], entry?: Entry): CleanTarget {
  const meta = join(dir.results, `${id}.json`);
  const paths = files.map((f) => f.path).sort((a, b) => (a === meta ? -1 : b === meta ? 1 : a < b ? -1 : 1));
  return { id, ...(entry ? { entry } : {}), files: paths, bytes: files.reduce((n, f) => n + f.stat.size, 0) };
}

/** What `clean` would remove now. Reads only; safe to run while results are being written. */
export function planClean(dir: RunDir, request: CleanRequest): CleanPlan {
  const now = request.now ?? Date.now();
  const files = filesById(dir);
  const plan: CleanPlan = { targets: [], running: [] };
  const known = new Set<string>();
  for (const entry of listEntries(dir)) {
    known.add(entry.meta.id);
    if (!request.all && now - entry.startedMs <= request.olderThanMs) continue;
    if (entry.state === 'running') plan.running.push(entry);
    else plan.targets.push(targetOf(dir, entry.meta.id, files.get(entry.meta.id) ?? [], entry));
  }
  const orphanAge = Math.max(ORPHAN_GRACE_MS, request.all ? 0 : request.olderThanMs);
  for (const [id, list] of files) {
    if (known.has(id)) continue;
    const newest = Math.max(...list.map((f) => f.stat.mtimeMs));
    if (now - newest > orphanAge) plan.targets.push(targetOf(dir, id, list));
  }
  return plan;
}

/** Removes what a plan names; returns the bytes freed. */
export function applyClean(dir: RunDir, plan: CleanPlan, request: CleanRequest): number {
  let freed = 0;
  for (const target of plan.targets) {
    for (const path of target.files) {
      try {
        rmSync(path, { force: true });
      } catch {
        /* gone already, or not ours to remove */
      }
    }
    freed += target.bytes;
  }
  removeLegacyIndex(dir);
  const now = request.now ?? Date.now();
  const last = join(dir.root, 'last');
  for (const name of safeReaddir(last)) {
    const path = join(last, name);
    if (request.all || now - safeMtime(path) > request.olderThanMs) rmSync(path, { force: true });
  }
  if (request.all) {
    for (const path of [ledgerPath(dir), stampPath(dir)]) rmSync(path, { force: true });
    for (const path of [last, dir.results, dir.root]) {
      try {
        rmdirSync(path);
      } catch {
        /* not empty: something is still running, or the directory holds files that are not ours */
      }
    }
  }
  return freed;
}

/**
 * Removes `<run_dir>/index/`, the search index of ctxwrap 0.1 (it holds the words of every
 * output). A link there is removed, not followed.
 */
function removeLegacyIndex(dir: RunDir): void {
  const path = join(dir.root, 'index');
  try {
    const st = lstatSync(path);
    rmSync(path, { recursive: st.isDirectory(), force: true });
  } catch {
    /* none, or not ours to remove */
  }
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path).filter((n) => n.endsWith('.json') || n.includes('.json.tmp-'));
  } catch {
    return [];
  }
}

function safeMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function stampPath(dir: RunDir): string {
  return join(dir.root, '.pruned');
}

/**
 * Removes expired results, at most once an hour per run directory (a stamp file's age says
 * when it last ran), so that it costs one `stat` on almost every call. Never throws.
 */
export function maybePrune(dir: RunDir, now = Date.now()): void {
  try {
    const stamp = stampPath(dir);
    try {
      if (now - statSync(stamp).mtimeMs < PRUNE_EVERY_MS) return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    writeAtomic(stamp, ''); // a rename: never writes through a link planted there
    const request = { olderThanMs: resolveTtl(), now };
    applyClean(dir, planClean(dir, request), request);
  } catch {
    /* pruning is opportunistic: a bad CTXWRAP_TTL or a read-only directory leaves results as they are */
  }
}
