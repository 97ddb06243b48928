/**
 * A deadline for synchronous work that cannot check a clock itself: a regular expression that
 * backtracks catastrophically (`grep:(a+)+$` on a long line of a's) never returns to the event
 * loop, so no timer can stop it. Node's vm watchdog can: it terminates whatever JavaScript is
 * running when the time is up, and the work ends with `onTimeout()`'s error instead of a hang.
 */
import { createContext, runInContext } from 'node:vm';

export function withDeadline<T>(ms: number, work: () => T, onTimeout: () => never): T {
  const context = createContext({ work });
  try {
    return runInContext('work()', context, { timeout: Math.max(1, Math.round(ms)) }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') onTimeout();
    throw error;
  }
}

/** How long a grep may take over `bytes` of output: 10 s, plus 1 s per 20 MB. */
export function grepDeadlineMs(bytes: number): number {
  return 10_000 + bytes / 20_000;
}
