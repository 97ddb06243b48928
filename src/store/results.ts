/** The on-disk layout of one result, its metadata, and the pointer to a command's last run. */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';
import type { LineRange } from '../shield.js';
import { type Fingerprint, parseFingerprint, serializeFingerprint } from '../summary/fingerprint.js';
import { fnv1a } from '../summary/hash.js';
import { validateId } from './ids.js';
import type { RunDir } from './run-dir.js';
import { isPlanted, openFileForRead, openFileForWrite, readFileNoFollow } from './safe-open.js';

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
  /**
   * When that process started (field 22 of /proc/<pid>/stat, clock ticks since boot), stamped
   * by writeMeta where /proc exists: with the pid, it tells the writer from a process that
   * reused its pid or holds the same pid in another PID namespace.
   */
  pidStart?: number;
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
  /** Set when fewer bytes than `bytes` reached the stored file (disk full, ...). */
  storedBytes?: number;
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

/**
 * Writes a file atomically: a new temporary file in the same directory (never an existing one,
 * so never through a planted link), then a rename over whatever was at `path`.
 */
export function writeAtomic(path: string, data: string): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw error;
  }
}

/**
 * Writes a result's metadata atomically. On a full disk (no room for the temporary file) the
 * existing metadata file is overwritten in place instead, in the blocks it already has, so that
 * a run that filled the disk does not stay 'running' for ever.
 */
export function writeMeta(dir: RunDir, meta: ResultMeta): void {
  if (meta.state === 'running' && meta.pid === process.pid && meta.pidStart === undefined) {
    const start = processStart(process.pid);
    if (start !== undefined) meta.pidStart = start;
  }
  const path = resultPaths(dir, meta.id).meta;
  const text = `${JSON.stringify(meta, null, 2)}\n`;
  try {
    writeAtomic(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EDQUOT') throw error;
    overwriteInPlace(path, Buffer.from(text));
  }
}

function overwriteInPlace(path: string, data: Buffer): void {
  const fd = openFileForWrite(path);
  try {
    for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off, off);
    ftruncateSync(fd, data.length);
  } finally {
    closeSync(fd);
  }
}

/** Reads a result's metadata; an unknown id is a one-line error naming the run directory. */
export function readMeta(dir: RunDir, id: string): ResultMeta {
  const paths = resultPaths(dir, id);
  let text: string;
  try {
    text = readFileNoFollow(paths.meta);
  } catch (error) {
    if (isPlanted(error))
      throw new CtxwrapError(
        `the metadata of result '${id}' in ${dir.root} is not a regular file (a link?); not reading it`,
        EXIT_FAILURE,
      );
    throw new CtxwrapError(`no result '${id}' in ${dir.root} (see 'ctxwrap list')`, EXIT_FAILURE);
  }
  const meta = parseMeta(text, id);
  if (!meta) throw new CtxwrapError(`the metadata of result '${id}' in ${dir.root} is damaged`, EXIT_FAILURE);
  return meta;
}

/** Parses a metadata file's text; undefined unless it is an object about `id` with the fields every reader uses. */
export function parseMeta(text: string, id: string): ResultMeta | undefined {
  let meta: ResultMeta;
  try {
    meta = JSON.parse(text) as ResultMeta;
  } catch {
    return undefined;
  }
  if (typeof meta !== 'object' || meta === null || meta.id !== id) return undefined;
  if (meta.state !== 'running' && meta.state !== 'complete') return undefined;
  if (typeof meta.startedAt !== 'string' || !Array.isArray(meta.command)) return undefined;
  return meta;
}

/**
 * Opens a result's stored output for reading (a file descriptor), never through a link: a
 * missing or planted file is a one-line CtxwrapError.
 */
export function openStoredOutput(dir: RunDir, id: string): number {
  try {
    return openFileForRead(resultPaths(dir, id).output);
  } catch (error) {
    if (isPlanted(error))
      throw new CtxwrapError(
        `the output of '${id}' in ${dir.root} is not a regular file (a link?); not reading it`,
        EXIT_FAILURE,
      );
    throw new CtxwrapError(`no stored output for '${id}' in ${dir.root} (see 'ctxwrap list')`, EXIT_FAILURE);
  }
}

/** A stored text file of a result (its summary), or undefined when missing or not a regular file. */
export function readStoredText(path: string): string | undefined {
  try {
    return readFileNoFollow(path);
  } catch {
    return undefined;
  }
}

let ownStart: number | undefined | null = null;

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or
 * undefined where there is no /proc or no such process. Our own is read once.
 */
export function processStart(pid: number): number | undefined {
  if (pid === process.pid && ownStart !== null) return ownStart;
  let start: number | undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const value = Number(fields[19]);
    start = Number.isSafeInteger(value) ? value : undefined;
  } catch {
    start = undefined;
  }
  if (pid === process.pid) ownStart = start;
  return start;
}

const MAX_PID = 4_194_304;

/** How a running result's writer is checked: by pid and start time, or by pid alone. */
export type Liveness = 'alive' | 'gone' | 'unverified';

/**
 * Whether the process that writes a running result is still that process: its pid answers
 * and, where /proc gives start times, it started when the writer did (a reused pid, or pid 1
 * recorded inside a container's PID namespace, is another process). `unverified` when only
 * the pid could be checked and it answers.
 */
export function writerLiveness(meta: ResultMeta): Liveness {
  // Linux pids stop at 2^22; anything past that (or not a number) names no process.
  if (!Number.isSafeInteger(meta.pid) || meta.pid <= 0 || meta.pid > MAX_PID) return 'gone';
  try {
    process.kill(meta.pid, 0);
  } catch (error) {
    // EPERM: a process of another user holds the pid; anything else: there is no such process.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  const recorded = meta.pidStart;
  const now = processStart(meta.pid);
  if (typeof recorded === 'number' && now !== undefined) return now === recorded ? 'alive' : 'gone';
  return 'unverified';
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
    const p = JSON.parse(readFileNoFollow(lastPointer(dir, cwd, command))) as {
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
  const last = join(dir.root, 'last');
  try {
    if (!lstatSync(last).isDirectory()) return; // a link or a file planted there: leave it
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    try {
      mkdirSync(last, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  writeAtomic(path, JSON.stringify({ id, cwd, command }));
}

/**
 * A previous run's fingerprint (bounded sets of its line hashes), or undefined when it has none
 * or one in an older format.
 */
export function readFingerprint(dir: RunDir, id: string): Fingerprint | undefined {
  try {
    return parseFingerprint(JSON.parse(readFileNoFollow(resultPaths(dir, id).fingerprint)));
  } catch {
    return undefined;
  }
}

export function writeFingerprint(dir: RunDir, id: string, fingerprint: Fingerprint): void {
  writeAtomic(resultPaths(dir, id).fingerprint, serializeFingerprint(fingerprint));
}
