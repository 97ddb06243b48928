/** The on-disk layout of one result, its metadata, and the pointer to a command's last run. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';
import type { LineRange } from '../shield.js';
import { fnv1a } from '../summary/hash.js';
import { validateId } from './ids.js';
import type { RunDir } from './run-dir.js';

/** How a run ended. */
export type EndReason =
  | 'exit'
  | 'signal'
  | 'timeout'
  | 'interrupted'
  | 'not-found'
  | 'not-executable'
  | 'spawn-error'
  | 'stdin';

/** The metadata stored beside a result as `<id>.json`. */
export interface ResultMeta {
  version: 1;
  id: string;
  /** The command as run: argv, or `['/bin/sh', '-c', string]` for `-c`. Empty for stdin. */
  command: string[];
  /** Where the bytes came from. */
  source: 'command' | 'shell' | 'stdin';
  /** The name given with `--name`, if any. */
  name?: string;
  cwd: string;
  startedAt: string;
  /** `running` until the run has ended and everything is written. */
  state: 'running' | 'complete';
  /** The ctxwrap process that writes the result (to tell a crashed run from a live one). */
  pid: number;
  durationMs?: number;
  /** What ctxwrap exits with for this run. */
  exitCode?: number;
  /** The child's own exit code, or null when it died of a signal or never started. */
  childExitCode?: number | null;
  signal?: string | null;
  endReason?: EndReason;
  /** A one-line explanation when the run did not simply exit. */
  status?: string;
  bytes?: number;
  lines?: number;
  stderrBytes?: number;
  stderrLines?: number;
  binary?: boolean;
  /** Set when the output may be incomplete, with the reason. */
  cutShort?: string;
  /** The options the summary was made with, so that `show` can make it again. */
  summary?: {
    budget: number;
    tailRatio: number;
    inlineThreshold: number;
    redact?: boolean;
    previousId?: string;
  };
  /** Lines of PEM private-key blocks, masked whole wherever a line of the output is printed. */
  keyRanges?: LineRange[];
  /** Bytes of the summary printed when the run ended. */
  summaryBytes?: number;
  /** The agent's own one-line note (`ctxwrap note`). */
  note?: string;
}

export interface ResultPaths {
  output: string;
  meta: string;
  summary: string;
  fingerprint: string;
}

export function resultPaths(dir: RunDir, id: string): ResultPaths {
  const base = join(dir.results, validateId(id));
  return {
    output: `${base}.txt`,
    meta: `${base}.json`,
    summary: `${base}.summary.txt`,
    fingerprint: `${base}.fp.json`,
  };
}

/** Writes a file atomically: a temporary file in the same directory, then a rename. */
export function writeAtomic(path: string, data: string): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, path);
}

export function writeMeta(dir: RunDir, meta: ResultMeta): void {
  writeAtomic(resultPaths(dir, meta.id).meta, `${JSON.stringify(meta, null, 2)}\n`);
}

/** Reads a result's metadata; an unknown id is a one-line error naming the run directory. */
export function readMeta(dir: RunDir, id: string): ResultMeta {
  const paths = resultPaths(dir, id);
  let text: string;
  try {
    text = readFileSync(paths.meta, 'utf8');
  } catch {
    throw new CtxwrapError(`no result '${id}' in ${dir.root} (see 'ctxwrap list')`, EXIT_FAILURE);
  }
  try {
    return JSON.parse(text) as ResultMeta;
  } catch {
    throw new CtxwrapError(`the metadata of result '${id}' in ${dir.root} is damaged`, EXIT_FAILURE);
  }
}

/** True when the process that writes a running result is gone: the result is incomplete. */
export function isAbandoned(meta: ResultMeta): boolean {
  if (meta.state !== 'running') return false;
  try {
    process.kill(meta.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function lastPointer(dir: RunDir, cwd: string, command: readonly string[]): string {
  const key = fnv1a(`${cwd}\0${command.join('\0')}`)
    .toString(16)
    .padStart(8, '0');
  return join(dir.root, 'last', `${key}.json`);
}

/** The id of the last complete run of the same command in the same directory, if any. */
export function lastRunOf(dir: RunDir, cwd: string, command: readonly string[]): string | undefined {
  try {
    const p = JSON.parse(readFileSync(lastPointer(dir, cwd, command), 'utf8')) as {
      id: string;
      cwd: string;
      command: string[];
    };
    if (p.cwd !== cwd || p.command.join('\0') !== command.join('\0')) return undefined;
    validateId(p.id);
    return existsSync(resultPaths(dir, p.id).meta) ? p.id : undefined;
  } catch {
    return undefined;
  }
}

export function setLastRun(dir: RunDir, cwd: string, command: readonly string[], id: string): void {
  const path = lastPointer(dir, cwd, command);
  try {
    writeAtomic(path, JSON.stringify({ id, cwd, command }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(join(dir.root, 'last'), { recursive: true, mode: 0o700 });
    writeAtomic(path, JSON.stringify({ id, cwd, command }));
  }
}

/** A previous run's fingerprint (distinct normalised salient lines), or undefined. */
export function readFingerprint(dir: RunDir, id: string): number[] | undefined {
  try {
    const fp = JSON.parse(readFileSync(resultPaths(dir, id).fingerprint, 'utf8')) as { lines: number[] };
    return Array.isArray(fp.lines) ? fp.lines.filter((n) => Number.isInteger(n)) : undefined;
  } catch {
    return undefined;
  }
}

export function writeFingerprint(dir: RunDir, id: string, lines: number[]): void {
  writeAtomic(resultPaths(dir, id).fingerprint, JSON.stringify({ lines }));
}
