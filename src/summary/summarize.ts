import { Collector, type CollectorOptions } from './collector.js';
import { buildSummary, type RenderOptions, type RunFacts, renderSummary, type Summary } from './render.js';

export interface SummarizeOptions extends RenderOptions, Omit<CollectorOptions, 'keepBytes'> {}

/** How many bytes of start and end the collector keeps whole for a given budget. */
export function keepBytesFor(budget = 2000): number {
  return Math.max(65536, budget * 16);
}

/** The facts of an output summarised in memory when the caller gives none. */
const MEMORY_FACTS: RunFacts = { id: 'output', path: '(memory)', exitCode: 0, durationMs: 0 };

/**
 * Summarises a whole output held in memory: the same function `ctxwrap run` applies while it
 * streams. Deterministic: the same bytes, facts and options always give the same text.
 * `facts` (the header's id, path, exit status and duration) default to an output in memory
 * that exited 0; a bad argument throws a TypeError whose message is one line.
 *
 *     summarize(text)
 *     summarize(text, { id: 'tool_1', exitCode: 2 }, { budget: 1000 })
 */
export function summarize(
  output: Uint8Array | string,
  facts: Partial<RunFacts> = {},
  options: SummarizeOptions = {},
): string {
  return renderSummary(summarizeModel(output, facts, options));
}

/** As `summarize`, but returns the line model (with roles, for colouring). */
export function summarizeModel(
  output: Uint8Array | string,
  facts: Partial<RunFacts> = {},
  options: SummarizeOptions = {},
): Summary {
  checkArguments(output, facts, options);
  const collector = new Collector({ ...options, keepBytes: keepBytesFor(options.budget) });
  collector.push(typeof output === 'string' ? Buffer.from(output, 'utf8') : output);
  return buildSummary(collector.end(), { ...MEMORY_FACTS, ...facts }, options);
}

const kind = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x);

function checkArguments(output: unknown, facts: unknown, options: unknown): void {
  const bad = (what: string, got: unknown) => {
    throw new TypeError(`ctxwrap summarize: ${what} (got ${kind(got)})`);
  };
  if (typeof output !== 'string' && !(output instanceof Uint8Array))
    bad('the output must be a string or a Uint8Array', output);
  if (typeof facts !== 'object' || facts === null || Array.isArray(facts))
    bad('the facts must be an object such as { id, exitCode }, or left out', facts);
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    bad('the options must be an object such as { budget: 2000 }, or left out', options);
  const { budget } = options as SummarizeOptions;
  if (budget !== undefined && !(typeof budget === 'number' && Number.isFinite(budget) && budget > 0))
    bad('options.budget must be a positive number of characters', budget);
}
