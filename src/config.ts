/**
 * Configuration resolves here: defaults, then CTXWRAP_* environment variables (read and checked
 * in env.ts), then command-line flags. A bad flag is a one-line error (exit 2); a bad variable,
 * on the path every wrapped command takes, is warned about and its default used.
 */
import { type FailOpen, readEnv, resolveRunDir } from './env.js';
import { MAX_TIMER_MS, parseDuration } from './parse-duration.js';
import { parseRatio, parseWhole } from './parse-number.js';
import { parseSize } from './parse-size.js';
import { DEFAULT_SHELL, shellFromEnv } from './runnable-shell.js';
import { DEFAULT_BUDGET, DEFAULT_TAIL_RATIO } from './summary-budget.js';

export { parseWhole };

export interface RunFlags {
  runDir?: string;
  budget?: string;
  tailRatio?: string;
  inlineThreshold?: string;
  timeout?: string;
  shell?: string;
  maxOutput?: string;
  minFree?: string;
}

export interface RunConfig {
  runDir: string;
  budget: number;
  tailRatio: number;
  inlineThreshold: number;
  timeoutMs?: number;
  killGraceMs: number;
  drainMs: number;
  /** How long a command's stdin, when ctxwrap's is a pipe or socket, waits for a first byte before EOF. */
  stdinWaitMs: number;
  /** The shell that runs a `-c` string (`--shell`, env CTXWRAP_SHELL, default /bin/sh). */
  shell: string;
  /** The most bytes of one output stored (`--max-output`, env CTXWRAP_MAX_OUTPUT, default 1 GiB). */
  maxOutputBytes: number;
  /** Storing stops rather than leave less free space than this (`--min-free`, env CTXWRAP_MIN_FREE, default 64 MiB). */
  minFreeBytes: number;
}

/** After a forwarded SIGTERM or a timeout, how long the command has before SIGKILL. */
const DEFAULT_KILL_GRACE_MS = 3000;
/**
 * After the command exits, how long ctxwrap waits for the end of its output before a background
 * process that holds it is left to the drainer (nothing is lost either way: see drainer.ts).
 */
const DEFAULT_DRAIN_MS = 100;
/**
 * The most bytes of one output stored: 1 GiB. A long CI build log is tens of MB; past a GiB an
 * output is a runaway (`yes`, a loop printing forever) whose tail no agent reads whole, and
 * storing on would only fill the disk. The summary still sees every byte.
 */
export const DEFAULT_MAX_OUTPUT_BYTES = 1 << 30;
/** Storing stops rather than leave less than this free on the run directory's disk: 64 MiB. */
const DEFAULT_MIN_FREE_BYTES = 64 << 20;
/** When ctxwrap's stdin is a pipe or socket that stays silent this long, the command gets EOF. */
const DEFAULT_STDIN_WAIT_MS = 2000;

/**
 * The run's configuration. Without `warn`, a bad environment value throws like a bad flag;
 * with it (the CLI), the value is reported in one line and its default used.
 */
export function resolveRunConfig(
  flags: RunFlags,
  env: NodeJS.ProcessEnv = process.env,
  warn?: (text: string) => void,
): RunConfig {
  const open = (fallback: string): FailOpen | undefined => (warn ? { warn, fallback } : undefined);
  const budget =
    flags.budget !== undefined
      ? parseWhole(flags.budget, '--budget', 200)
      : (readEnv(env, 'CTXWRAP_BUDGET', open(`the default ${DEFAULT_BUDGET}`)) ?? DEFAULT_BUDGET);
  const tailRatio =
    flags.tailRatio !== undefined
      ? parseRatio(flags.tailRatio, '--tail-ratio')
      : (readEnv(env, 'CTXWRAP_TAIL_RATIO', open(`the default ${DEFAULT_TAIL_RATIO}`)) ?? DEFAULT_TAIL_RATIO);
  const inlineThreshold =
    flags.inlineThreshold === undefined ? budget : parseWhole(flags.inlineThreshold, '--inline-threshold', 0);
  const timeoutMs =
    flags.timeout !== undefined
      ? parseDuration(flags.timeout, '--timeout', MAX_TIMER_MS)
      : readEnv(env, 'CTXWRAP_TIMEOUT', open('no timeout'));
  const config: RunConfig = {
    runDir: resolveRunDir(flags.runDir, env),
    budget,
    tailRatio,
    inlineThreshold,
    killGraceMs: readEnv(env, 'CTXWRAP_KILL_GRACE', open('the default 3s')) ?? DEFAULT_KILL_GRACE_MS,
    drainMs: readEnv(env, 'CTXWRAP_DRAIN', open('the default 100ms')) ?? DEFAULT_DRAIN_MS,
    stdinWaitMs: readEnv(env, 'CTXWRAP_STDIN_WAIT', open('the default 2s')) ?? DEFAULT_STDIN_WAIT_MS,
    shell: flags.shell ?? envShell(readEnv(env, 'CTXWRAP_SHELL'), env, warn),
    maxOutputBytes:
      flags.maxOutput !== undefined
        ? parseSize(flags.maxOutput, '--max-output')
        : (readEnv(env, 'CTXWRAP_MAX_OUTPUT', open('the default 1G')) ?? DEFAULT_MAX_OUTPUT_BYTES),
    minFreeBytes:
      flags.minFree !== undefined
        ? parseSize(flags.minFree, '--min-free')
        : (readEnv(env, 'CTXWRAP_MIN_FREE', open('the default 64M')) ?? DEFAULT_MIN_FREE_BYTES),
  };
  if (timeoutMs !== undefined) config.timeoutMs = timeoutMs;
  return config;
}

/** CTXWRAP_SHELL, or /bin/sh; one that cannot run is /bin/sh after a warning, when there is `warn`. */
function envShell(value: string | undefined, env: NodeJS.ProcessEnv, warn?: (text: string) => void): string {
  if (value === undefined) return DEFAULT_SHELL;
  return warn ? shellFromEnv(value, env, warn) : value;
}

/** Hits `search` prints by default. */
export const DEFAULT_SEARCH_LIMIT = 5;
/** Characters `search` prints at most by default. */
export const DEFAULT_SEARCH_MAX_CHARS = 4000;

export interface SearchFlags {
  runDir?: string;
  limit?: string;
  maxChars?: string;
}

export interface SearchConfig {
  runDir: string;
  limit: number;
  maxChars: number;
  /** How outputs are scanned (CTXWRAP_SEARCH_SCAN): spawned grep (default, JS when it cannot run) or JS. */
  scan: 'grep' | 'js';
}

export function resolveSearchConfig(flags: SearchFlags, env: NodeJS.ProcessEnv = process.env): SearchConfig {
  return {
    runDir: resolveRunDir(flags.runDir, env),
    limit: flags.limit === undefined ? DEFAULT_SEARCH_LIMIT : parseWhole(flags.limit, '--limit', 1, 100),
    maxChars:
      flags.maxChars === undefined
        ? DEFAULT_SEARCH_MAX_CHARS
        : parseWhole(flags.maxChars, '--max-chars', 400, 1_000_000),
    scan: readEnv(env, 'CTXWRAP_SEARCH_SCAN') ?? 'grep',
  };
}
