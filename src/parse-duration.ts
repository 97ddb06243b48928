import { CtxwrapError, quoted } from './errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The longest delay a Node timer holds (2^31 - 1 ms, about 24.8 days); a longer one fires at
 * once, so a duration that ends up in a timer is refused beyond it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Parses a duration: `500ms`, `30s`, `5m`, `2h`, `7d`, or a bare number of seconds (`1.5`).
 * Throws a one-line CtxwrapError naming the option and the accepted forms; `maxMs` bounds it
 * (MAX_TIMER_MS for a duration a timer waits for).
 */
export function parseDuration(text: string, option: string, maxMs = Number.POSITIVE_INFINITY): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!m)
    throw new CtxwrapError(
      `${option} takes a duration such as 500ms, 30s, 5m, 2h or 7d (got '${quoted(text)}')`,
    );
  const ms = Number(m[1]) * (UNITS[(m[2] ?? 's').toLowerCase()] as number);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new CtxwrapError(`${option} must be greater than zero (got '${quoted(text)}')`);
  if (ms > maxMs)
    throw new CtxwrapError(
      `${option} takes at most ${maxMs === MAX_TIMER_MS ? '24d (the longest a timer holds, about 24.8 days)' : `${maxMs} ms`} (got '${quoted(text)}')`,
    );
  return ms;
}
