/**
 * The summary built after the command exits is the last work of a ctxwrap process, and the wait
 * the user feels (issue 23). By then the warm-up has had the summary's code optimised (see
 * warm-summary.ts); what V8 would still optimise at the end (functions the final input reaches
 * with other shapes of objects, or that were only marked hot) compiles on a background thread
 * and is ready too late to help: in-process on 100 MB of compiler output it cost 80-150 ms of
 * CPU against the summary's 60 on the main thread, competed with it for the two cores, and
 * held up the exit (node waits for running compile jobs before it ends). Turning the optimising
 * compiler off leaves the optimised code in place and the output unchanged: code runs the same,
 * only which tier runs it differs.
 */
import { setFlagsFromString } from 'node:v8';

/** Stops V8 from optimising any more code in this process: call it only when the process ends soon. */
export function optimizeNoMore(): void {
  setFlagsFromString('--no-turbofan');
}
