/**
 * ctxwrap as a library: bound a tool result in-process, without spawning anything.
 *
 *   import { summarize } from 'ctxwrap';
 *   const text = summarize(output, { id: 'tool_1', path: '(memory)', exitCode: 0, durationMs: 0 });
 */
export { summarize, summarizeModel, type SummarizeOptions } from './summary/summarize.js';
export { Collector, type Collected, type CollectorOptions, type Candidate } from './summary/collector.js';
export {
  buildSummary,
  renderSummary,
  DEFAULT_BUDGET,
  DEFAULT_TAIL_RATIO,
  type RunFacts,
  type RenderOptions,
  type Summary,
  type SummaryLine,
} from './summary/render.js';
export { cleanLine, cleanLines, stripAnsi } from './summary/clean.js';
export { estimateTokens } from './tokens.js';
