/**
 * The registry of a run directory: the result metadata files are the only authority on what
 * exists. An id that appears in some tool's output but has no metadata here does not exist.
 */
import { existsSync } from 'node:fs';
import { type ResultFile, resultFiles } from './result-files.js';
import { parseMeta, type ResultMeta, writerLiveness } from './results.js';
import type { RunDir } from './run-dir.js';
import { readSmallNoFollow } from './safe-open.js';

/** A result's state as list and search see it. */
export type ResultState = 'complete' | 'running' | 'incomplete';

export interface Entry {
  meta: ResultMeta;
  state: ResultState;
  /** When the result started, in ms since the epoch. */
  startedMs: number;
}

/**
 * A result whose writer could be checked by its pid alone (metadata from an older ctxwrap, or a
 * system without /proc) and that has been "running" for longer than this is taken to be
 * incomplete (7 days, the default time to live), so that a pid held by another process cannot
 * keep it running for ever.
 */
const UNVERIFIED_RUNNING_MS = 7 * 86_400_000;

export function stateOf(meta: ResultMeta, now = Date.now()): ResultState {
  if (meta.state === 'complete') return 'complete';
  const liveness = writerLiveness(meta);
  if (liveness === 'gone') return 'incomplete';
  if (liveness === 'unverified' && now - Date.parse(meta.startedAt) > UNVERIFIED_RUNNING_MS)
    return 'incomplete';
  return 'running';
}

/** True when a finished result is older than the time to live. A running result never expires. */
export function isExpired(entry: Entry, ttlMs: number, now = Date.now()): boolean {
  return entry.state !== 'running' && now - entry.startedMs > ttlMs;
}

/**
 * Every result of the run directory, newest first. Damaged or half-written metadata files are
 * skipped, never trusted. A missing run directory is an empty registry.
 */
export function listEntries(dir: RunDir): Entry[] {
  const entries: Entry[] = [];
  for (const { id, suffix, path } of resultFiles(dir)) if (suffix === 'json') addEntry(entries, id, path);
  return newestFirst(entries);
}

/**
 * listEntries for a caller with a child process under way (a search's grep): the listing is
 * `files`, and every few files the event loop runs, so that the child's output is read while
 * the metadata is (a child that fills its pipe waits).
 */
export async function listEntriesYielding(files: ResultFile[]): Promise<Entry[]> {
  const entries: Entry[] = [];
  let read = 0;
  for (const { id, suffix, path } of files) {
    if (suffix !== 'json') continue;
    addEntry(entries, id, path);
    if (++read % 32 === 0) await new Promise((go) => setImmediate(go));
  }
  return newestFirst(entries);
}

function addEntry(entries: Entry[], id: string, path: string): void {
  try {
    const meta = parseMeta(readSmallNoFollow(path), id);
    if (!meta || neverStarted(meta, path)) return;
    const startedMs = Date.parse(meta.startedAt);
    entries.push({ meta, state: stateOf(meta), startedMs: Number.isNaN(startedMs) ? 0 : startedMs });
  } catch {
    /* being written or damaged: not part of the registry */
  }
}

/**
 * A result the hook planned for a command in the agent's shell that never started (the agent
 * declined the call): the wrapper creates the output file before the command runs, so a shell
 * result still running without one never began. It is no result; clean sweeps its record.
 */
function neverStarted(meta: ResultMeta, metaPath: string): boolean {
  return (
    meta.state !== 'complete' && meta.source === 'shell' && !existsSync(metaPath.replace(/\.json$/, '.txt'))
  );
}

const newestFirst = (entries: Entry[]) =>
  entries.sort((a, b) => b.startedMs - a.startedMs || (a.meta.id < b.meta.id ? -1 : 1));
