/**
 * Every CTXWRAP_* environment variable is read and checked here, and nowhere else. An unset or
 * empty variable is undefined. A bad value throws the one-line error of its parser, or, where the
 * caller must fail open (the path every wrapped command takes), is reported once and ignored.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CtxwrapError, quoted } from './errors.js';
import { MAX_TIMER_MS, parseDuration } from './parse-duration.js';
import { parseRatio, parseWhole } from './parse-number.js';
import { parseSize } from './parse-size.js';

const timer = (name: string) => (text: string) => parseDuration(text, name, MAX_TIMER_MS);
const text = (value: string) => value;

const PARSERS = {
  CTXWRAP_RUN_DIR: text,
  CTXWRAP_SHELL: text,
  CTXWRAP_BUDGET: (t: string) => parseWhole(t, 'CTXWRAP_BUDGET', 200),
  CTXWRAP_TAIL_RATIO: (t: string) => parseRatio(t, 'CTXWRAP_TAIL_RATIO'),
  CTXWRAP_TIMEOUT: timer('CTXWRAP_TIMEOUT'),
  CTXWRAP_KILL_GRACE: timer('CTXWRAP_KILL_GRACE'),
  CTXWRAP_DRAIN: timer('CTXWRAP_DRAIN'),
  CTXWRAP_STDIN_WAIT: timer('CTXWRAP_STDIN_WAIT'),
  CTXWRAP_GREP_TIMEOUT: timer('CTXWRAP_GREP_TIMEOUT'),
  CTXWRAP_TTL: (t: string) => parseDuration(t, 'CTXWRAP_TTL'),
  CTXWRAP_MAX_OUTPUT: (t: string) => parseSize(t, 'CTXWRAP_MAX_OUTPUT'),
  CTXWRAP_MIN_FREE: (t: string) => parseSize(t, 'CTXWRAP_MIN_FREE'),
  CTXWRAP_SEARCH_SCAN: (t: string): 'grep' | 'js' => {
    if (t === 'grep' || t === 'js') return t;
    throw new CtxwrapError(`CTXWRAP_SEARCH_SCAN takes grep or js (got '${quoted(t)}')`);
  },
} as const;

export type EnvName = keyof typeof PARSERS;
export type EnvValue<N extends EnvName> = ReturnType<(typeof PARSERS)[N]>;

/**
 * What to do with a bad value instead of throwing: `warn` gets one line naming the variable, what
 * is accepted, and `fallback` (the default used), and the value is ignored.
 */
export interface FailOpen {
  warn: (text: string) => void;
  fallback: string;
}

/** The text of one CTXWRAP_* variable as it was given (to quote it), or undefined when unset or empty. */
export function envText(env: NodeJS.ProcessEnv, name: EnvName): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** The checked value of one CTXWRAP_* variable, or undefined when it is unset or empty. */
export function readEnv<N extends EnvName>(
  env: NodeJS.ProcessEnv,
  name: N,
  failOpen?: FailOpen,
): EnvValue<N> | undefined {
  const raw = envText(env, name);
  if (raw === undefined) return undefined;
  if (!failOpen) return PARSERS[name](raw) as EnvValue<N>;
  try {
    return PARSERS[name](raw) as EnvValue<N>;
  } catch (error) {
    failOpen.warn(`${(error as Error).message}; using ${failOpen.fallback} and running the command`);
    return undefined;
  }
}

/** Default time to live of a result: 7 days (CTXWRAP_TTL overrides). */
const DEFAULT_TTL_MS = 7 * 86_400_000;

/** The time to live of results: CTXWRAP_TTL, else 7 days. */
export function resolveTtl(env: NodeJS.ProcessEnv = process.env, failOpen?: FailOpen): number {
  return readEnv(env, 'CTXWRAP_TTL', failOpen) ?? DEFAULT_TTL_MS;
}

/**
 * The run directory: `--run-dir`, else `CTXWRAP_RUN_DIR`, else `$XDG_STATE_HOME/ctxwrap`
 * (`~/.local/state/ctxwrap`), so that a result can be read by id from any working directory.
 * A relative path stays relative when the working directory no longer exists.
 */
export function resolveRunDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? readEnv(env, 'CTXWRAP_RUN_DIR');
  if (chosen !== undefined && chosen !== '') return absolute(chosen);
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return absolute(join(state, 'ctxwrap'));
}

function absolute(path: string): string {
  if (isAbsolute(path)) return resolve(path);
  try {
    return resolve(path);
  } catch {
    return path; // the working directory is gone: opening it fails later, and run fails open
  }
}

/** The working directory, or '.' when it has been deleted (a command can still run in it). */
export function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return '.';
  }
}
