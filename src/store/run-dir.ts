import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';

/** Where results live: `<root>/tool_results/<id>.txt` and its metadata beside it. */
export interface RunDir {
  root: string;
  results: string;
}

/**
 * The run directory: `--run-dir`, else `CTXWRAP_RUN_DIR`, else `$XDG_STATE_HOME/ctxwrap`
 * (`~/.local/state/ctxwrap`), so that a result can be read by id from any working directory.
 */
export function resolveRunDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.CTXWRAP_RUN_DIR;
  if (chosen !== undefined && chosen !== '') return resolve(chosen);
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return resolve(state, 'ctxwrap');
}

export function runDirAt(root: string): RunDir {
  return { root, results: join(root, 'tool_results') };
}

/** Creates the run directory (mode 0700) if needed, and checks that it is a usable directory. */
export function ensureRunDir(root: string): RunDir {
  const dir = runDirAt(root);
  for (const path of [dir.root, dir.results]) {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new CtxwrapError(`cannot create run directory ${path}: ${reason(error)}`, EXIT_FAILURE);
    }
    checkDir(path);
  }
  return dir;
}

/** Opens an existing run directory for reading; a missing one is an empty store. */
export function openRunDir(root: string): RunDir {
  return runDirAt(root);
}

function checkDir(path: string): void {
  const st = lstatSync(path);
  if (!st.isDirectory()) throw new CtxwrapError(`run directory ${path} is not a directory`, EXIT_FAILURE);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new CtxwrapError(
      `run directory ${path} belongs to another user (uid ${st.uid}); use --run-dir`,
      EXIT_FAILURE,
    );
  }
  if ((st.mode & 0o022) !== 0) {
    try {
      chmodSync(path, 0o700);
    } catch {
      throw new CtxwrapError(
        `run directory ${path} is writable by others; fix its mode or use --run-dir`,
        EXIT_FAILURE,
      );
    }
  }
}

export function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'ENOTDIR' || e?.code === 'EEXIST') return 'a file is in the way';
  if (e?.code === 'EROFS') return 'read-only file system';
  if (e?.code === 'ENOSPC') return 'no space left on device';
  if (e?.code === 'EDQUOT') return 'disk quota exceeded';
  return e?.code ?? (e instanceof Error ? e.message : String(error));
}
