/** How much a summary shows by default (`--budget`, `--tail-ratio`); see summary/render.ts. */

/** The summary's length in characters. */
export const DEFAULT_BUDGET = 2650;
/** The share of the budget given to the end of the output, the rest to its start. */
export const DEFAULT_TAIL_RATIO = 0.7;
