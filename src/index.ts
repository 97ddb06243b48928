/**
 * ctxwrap as a library: bound a tool result in-process, without spawning anything.
 *
 *   import { summarize } from 'ctxwrap';
 *   const text = summarize(output, { id: 'tool_1', path: '(memory)', exitCode: 0, durationMs: 0 });
 */

export { cleanLine, cleanLines, stripAnsi } from './summary/clean.js';
export type { Candidate, Collected } from './summary/collected.js';
export { Collector, type CollectorOptions } from './summary/collector.js';
export {
  buildSummary,
  DEFAULT_BUDGET,
  DEFAULT_TAIL_RATIO,
  type RenderOptions,
  type RunFacts,
  renderSummary,
  type Summary,
  type SummaryLine,
} from './summary/render.js';
export { type SummarizeOptions, summarize, summarizeModel } from './summary/summarize.js';
export { estimateTokens } from './tokens.js';
