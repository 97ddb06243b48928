import { Collector, type CollectorOptions } from './collector.js';
import { buildSummary, type RenderOptions, type RunFacts, renderSummary, type Summary } from './render.js';

export interface SummarizeOptions extends RenderOptions, Omit<CollectorOptions, 'keepBytes'> {}

/** How many bytes of start and end the collector keeps whole for a given budget. */
export function keepBytesFor(budget = 2000): number {
  return Math.max(65536, budget * 16);
}

/**
 * Summarises a whole output held in memory: the same function `ctxwrap run` applies while it
 * streams. Deterministic: the same bytes, facts and options always give the same text.
 */
export function summarize(
  output: Uint8Array | string,
  facts: RunFacts,
  options: SummarizeOptions = {},
): string {
  return renderSummary(summarizeModel(output, facts, options));
}

/** As `summarize`, but returns the line model (with roles, for colouring). */
export function summarizeModel(
  output: Uint8Array | string,
  facts: RunFacts,
  options: SummarizeOptions = {},
): Summary {
  const collector = new Collector({ ...options, keepBytes: keepBytesFor(options.budget) });
  collector.push(typeof output === 'string' ? Buffer.from(output, 'utf8') : output);
  return buildSummary(collector.end(), facts, options);
}
