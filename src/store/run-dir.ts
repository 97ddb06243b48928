import { lstatSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';

/** Where results live: `<root>/tool_results/<id>.txt` and its metadata beside it. */
export interface RunDir {
  root: string;
  results: string;
}

export function runDirAt(root: string): RunDir {
  return { root, results: join(root, 'tool_results') };
}

/**
 * Creates the run directory (mode 0700) if needed, and checks that it is safe to use: a real
 * directory (the run directory itself may be a symbolic link of the user's own, `tool_results`
 * may not), owned by this user and writable by no one else. Anything else is refused with a
 * one-line CtxwrapError, so that no other user can plant files or links where results go.
 */
export function ensureRunDir(root: string): RunDir {
  const dir = runDirAt(root);
  makeDirectory(dir.root);
  checkRoot(dir.root);
  makeDirectory(dir.results);
  checkInside(dir.results);
  return dir;
}

/**
 * Opens an existing run directory for reading; a missing one is an empty store. It is refused,
 * as by `ensureRunDir`, when another user owns it or could write to it.
 */
export function openRunDir(root: string): RunDir {
  const dir = runDirAt(root);
  if (!lstatOrUndefined(dir.root)) return dir;
  checkRoot(dir.root);
  if (lstatOrUndefined(dir.results)) checkInside(dir.results);
  return dir;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CtxwrapError(`cannot use run directory ${path}: ${reason(error)}`, EXIT_FAILURE);
  }
}

/** `mkdir -p` with mode 0700 that reports the real cause (recursive mkdirSync says ENOENT for EROFS). */
function makeDirectory(path: string, parents = true): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(path);
    if (code === 'ENOENT' && parents && parent !== path) {
      makeDirectory(parent);
      makeDirectory(path, false);
      return;
    }
    throw new CtxwrapError(`cannot create run directory ${path}: ${reason(error)}`, EXIT_FAILURE);
  }
}

/** The run directory may be a link the user made (owned by them) to a directory that passes the checks. */
function checkRoot(path: string): void {
  const link = lstatOrUndefined(path);
  if (link?.isSymbolicLink()) {
    checkOwner(path, link, 'is a symbolic link owned by another user');
    let target: Stats;
    try {
      target = statSync(path);
    } catch (error) {
      throw new CtxwrapError(`cannot use run directory ${path}: ${reason(error)}`, EXIT_FAILURE);
    }
    checkDirectory(path, target);
    return;
  }
  if (!link) throw new CtxwrapError(`run directory ${path} was removed`, EXIT_FAILURE);
  checkDirectory(path, link);
}

/** Inside the run directory, nothing is a link. */
function checkInside(path: string): void {
  const st = lstatOrUndefined(path);
  if (!st) throw new CtxwrapError(`run directory ${path} was removed`, EXIT_FAILURE);
  if (st.isSymbolicLink())
    throw new CtxwrapError(
      `run directory ${path} is a symbolic link; ctxwrap does not follow links in its run directory`,
      EXIT_FAILURE,
    );
  checkDirectory(path, st);
}

function checkDirectory(path: string, st: Stats): void {
  if (!st.isDirectory())
    throw new CtxwrapError(`run directory ${path} is not a directory (a file is in the way)`, EXIT_FAILURE);
  checkOwner(path, st, 'belongs to another user');
  if ((st.mode & 0o022) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new CtxwrapError(
      `run directory ${path} is writable by others (mode ${mode}); chmod 700 it or use --run-dir`,
      EXIT_FAILURE,
    );
  }
}

function checkOwner(path: string, st: Stats, what: string): void {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new CtxwrapError(`run directory ${path} ${what} (uid ${st.uid}); use --run-dir`, EXIT_FAILURE);
}

export function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'ENOTDIR' || e?.code === 'EEXIST') return 'a file is in the way';
  if (e?.code === 'ENOENT') return 'no such file or directory';
  if (e?.code === 'EROFS') return 'read-only file system';
  if (e?.code === 'ENOSPC') return 'no space left on device';
  if (e?.code === 'EDQUOT') return 'disk quota exceeded';
  if (e?.code === 'EFBIG') return 'file size limit exceeded (ulimit -f)';
  return e?.code ?? (e instanceof Error ? e.message : String(error));
}
