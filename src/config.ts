/**
 * Configuration resolves here and nowhere else: defaults, then CTXWRAP_* environment variables,
 * then command-line flags. Each value is checked once, with a one-line error naming what is
 * accepted.
 */
import { CtxwrapError, quoted } from './errors.js';
import { parseDuration } from './parse-duration.js';
import { resolveRunDir } from './store/run-dir.js';
import { DEFAULT_BUDGET, DEFAULT_TAIL_RATIO } from './summary/render.js';

export interface RunFlags {
  runDir?: string;
  budget?: string;
  tailRatio?: string;
  inlineThreshold?: string;
  timeout?: string;
  shell?: string;
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
}

/** After a forwarded SIGTERM or a timeout, how long the command has before SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 3000;
/** After the command exits, how long ctxwrap waits for pipes held by a background process. */
export const DEFAULT_DRAIN_MS = 500;
/** When ctxwrap's stdin is a pipe or socket that stays silent this long, the command gets EOF. */
export const DEFAULT_STDIN_WAIT_MS = 2000;

function pick(flag: string | undefined, env: string | undefined): [string | undefined, string] {
  if (flag !== undefined) return [flag, 'flag'];
  if (env !== undefined && env !== '') return [env, 'env'];
  return [undefined, ''];
}

export function parseWhole(text: string, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text.replace(/_/g, ''));
  if (!/^\s*\d[\d_]*\s*$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new CtxwrapError(`${what} takes a whole number ${range} (got '${quoted(text)}')`);
  }
  return n;
}

export function resolveRunConfig(flags: RunFlags, env: NodeJS.ProcessEnv = process.env): RunConfig {
  const [budgetText, budgetFrom] = pick(flags.budget, env.CTXWRAP_BUDGET);
  const budget =
    budgetText === undefined
      ? DEFAULT_BUDGET
      : parseWhole(budgetText, budgetFrom === 'env' ? 'CTXWRAP_BUDGET' : '--budget', 200);
  const [ratioText, ratioFrom] = pick(flags.tailRatio, env.CTXWRAP_TAIL_RATIO);
  let tailRatio = DEFAULT_TAIL_RATIO;
  if (ratioText !== undefined) {
    tailRatio = Number(ratioText);
    if (!/^\s*\d*\.?\d+\s*$/.test(ratioText) || tailRatio < 0 || tailRatio > 1) {
      throw new CtxwrapError(
        `${ratioFrom === 'env' ? 'CTXWRAP_TAIL_RATIO' : '--tail-ratio'} takes a number from 0 to 1 (got '${quoted(ratioText)}')`,
      );
    }
  }
  const inlineThreshold =
    flags.inlineThreshold === undefined ? budget : parseWhole(flags.inlineThreshold, '--inline-threshold', 0);
  const [timeoutText, timeoutFrom] = pick(flags.timeout, env.CTXWRAP_TIMEOUT);
  const config: RunConfig = {
    runDir: resolveRunDir(flags.runDir, env),
    budget,
    tailRatio,
    inlineThreshold,
    killGraceMs: env.CTXWRAP_KILL_GRACE
      ? parseDuration(env.CTXWRAP_KILL_GRACE, 'CTXWRAP_KILL_GRACE')
      : DEFAULT_KILL_GRACE_MS,
    drainMs: env.CTXWRAP_DRAIN ? parseDuration(env.CTXWRAP_DRAIN, 'CTXWRAP_DRAIN') : DEFAULT_DRAIN_MS,
    stdinWaitMs: env.CTXWRAP_STDIN_WAIT
      ? parseDuration(env.CTXWRAP_STDIN_WAIT, 'CTXWRAP_STDIN_WAIT')
      : DEFAULT_STDIN_WAIT_MS,
    shell: pick(flags.shell, env.CTXWRAP_SHELL)[0] ?? '/bin/sh',
  };
  if (timeoutText !== undefined)
    config.timeoutMs = parseDuration(timeoutText, timeoutFrom === 'env' ? 'CTXWRAP_TIMEOUT' : '--timeout');
  return config;
}

/** Hits `search` prints by default. */
export const DEFAULT_SEARCH_LIMIT = 5;
/** Characters `search` prints at most by default. */
export const DEFAULT_SEARCH_MAX_CHARS = 4000;
/** Bytes of one output that search indexes by default (its first and last halves of this). */
export const DEFAULT_INDEX_BYTES = 16 << 20;

export interface SearchFlags {
  runDir?: string;
  limit?: string;
  maxChars?: string;
}

export interface SearchConfig {
  runDir: string;
  limit: number;
  maxChars: number;
  /** Bytes indexed from the start and from the end of each output (CTXWRAP_INDEX_BYTES / 2). */
  indexHeadBytes: number;
  indexTailBytes: number;
}

export function resolveSearchConfig(flags: SearchFlags, env: NodeJS.ProcessEnv = process.env): SearchConfig {
  const [indexText] = pick(undefined, env.CTXWRAP_INDEX_BYTES);
  const indexBytes =
    indexText === undefined ? DEFAULT_INDEX_BYTES : parseWhole(indexText, 'CTXWRAP_INDEX_BYTES', 2);
  return {
    runDir: resolveRunDir(flags.runDir, env),
    limit: flags.limit === undefined ? DEFAULT_SEARCH_LIMIT : parseWhole(flags.limit, '--limit', 1, 100),
    maxChars:
      flags.maxChars === undefined
        ? DEFAULT_SEARCH_MAX_CHARS
        : parseWhole(flags.maxChars, '--max-chars', 400, 1_000_000),
    indexHeadBytes: Math.ceil(indexBytes / 2),
    indexTailBytes: Math.floor(indexBytes / 2),
  };
}
