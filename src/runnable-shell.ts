/**
 * The shell a `-c` string runs in, as CTXWRAP_SHELL names it, checked before the command is
 * started: one that cannot run (`/nonexistent`, a directory, a file without x) would stop the
 * command, so ctxwrap falls back to /bin/sh with one warning (it fails open).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const DEFAULT_SHELL = '/bin/sh';

/** True when `program` (a path, or a name looked up on PATH) is an executable file. */
function canRun(program: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = program.includes('/')
    ? [program]
    : (env.PATH ?? '').split(delimiter).flatMap((dir) => (dir === '' ? [] : [join(dir, program)]));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

/** CTXWRAP_SHELL when it can run; else /bin/sh, after `warn` says so. */
export function shellFromEnv(value: string, env: NodeJS.ProcessEnv, warn: (text: string) => void): string {
  if (value === '' || canRun(value, env)) return value || DEFAULT_SHELL;
  warn(
    `CTXWRAP_SHELL names no program that can run (got '${value}'); using ${DEFAULT_SHELL} and running the command`,
  );
  return DEFAULT_SHELL;
}
