/**
 * The summary built after the command exits is the last work of a ctxwrap process, and the wait
 * the user feels (issue 23). By then the warm-up has had the summary's code optimised (see
 * warm-summary.ts); what V8 would still optimise at the end (functions the warm-up only marked
 * hot, or that the final input reaches with other shapes of objects) compiles on background
 * threads and is ready too late to help. Measured on bench 15's 100 MB of compiler output: from
 * the command's exit to ctxwrap's, the process spent 138-194 ms of CPU, of which the main thread
 * 60-75; with the optimising compiler turned off once the output is read, 60-87 ms, nearly all
 * the main thread's, and the process also went from `process.exit` to gone sooner (medians 37.6
 * and 16.8 ms, load 7.5). Optimised code already made stays in use, and the output is the same:
 * only which tier runs the code differs.
 */
/**
 * Stops V8 from optimising any more code in this process: call it only when the process ends soon.
 * node:v8 is loaded only here (every run's start would pay for it: 0.3 ms); a node without
 * `process.getBuiltinModule` (before 20.16) goes on optimising.
 */
export function optimizeNoMore(): void {
  if (typeof process.getBuiltinModule !== 'function') return;
  process.getBuiltinModule('node:v8').setFlagsFromString('--no-turbofan');
}
