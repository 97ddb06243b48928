/**
 * `--lines` of `ctxwrap read`: which lines of a stored result to show. Pure; every mistake is a
 * one-line usage error that says what was wrong and lists the accepted forms.
 */
import { CtxwrapError } from '../errors.js';

/** A range of line numbers, both ends included; `to` is Infinity for `A-` (to the end). */
export interface LineRange {
  from: number;
  to: number;
}

/** A `grep:` request: the pattern as given, and the expression every line is tested with. */
export interface GrepRequest {
  kind: 'grep';
  /** The pattern as the user wrote it, for notes: `TS2\d{3}`, `/timeout/i`. */
  source: string;
  /** Tests one line (no flags that keep state). */
  regex: RegExp;
}

export type LineSpec =
  | { kind: 'all' }
  | { kind: 'first'; count: number }
  | { kind: 'last'; count: number }
  | { kind: 'ranges'; ranges: LineRange[] }
  | GrepRequest;

/** The forms `--lines` accepts, as every error message lists them. */
const ACCEPTED_LINE_SPECS =
  'first:N, last:N, A-B, A- (to the end), N, lists such as 1-20,900-950, grep:PATTERN, grep:/PATTERN/i';

/** Flags a `grep:/PATTERN/flags` may carry; g and m change nothing when lines are tested one by one. */
const GREP_FLAGS = /^[gimsu]*$/;

function fail(spec: string, what: string): never {
  throw new CtxwrapError(`--lines '${shown(spec)}': ${what}; accepted: ${ACCEPTED_LINE_SPECS}`);
}

function shown(spec: string): string {
  const s = spec.length > 60 ? `${spec.slice(0, 60)}…` : spec;
  return s.replace(/[^\x20-\x7e]/g, '?');
}

/** Parses a `--lines` value (undefined means the whole output). */
export function parseLineSpec(spec: string | undefined): LineSpec {
  if (spec === undefined) return { kind: 'all' };
  if (spec.startsWith('grep:')) return parseGrep(spec, spec.slice('grep:'.length));
  const text = spec.trim();
  if (text === '') fail(spec, 'the spec is empty');
  const edge = /^(first|last):(.*)$/.exec(text);
  if (edge) {
    const [, which, count] = edge as unknown as [string, 'first' | 'last', string];
    if (!/^\d+$/.test(count.trim())) fail(spec, `${which}: takes a whole number of lines (got '${count}')`);
    const n = Number(count.trim());
    if (!Number.isSafeInteger(n) || n < 1) fail(spec, `${which}: takes at least 1 line (got '${count}')`);
    return { kind: which, count: n };
  }
  return {
    kind: 'ranges',
    ranges: mergeRanges(text.split(',').map((item) => parseRange(spec, item.trim()))),
  };
}

function parseRange(spec: string, item: string): LineRange {
  const m = /^(\d+)(?:(-)(\d*))?$/.exec(item);
  if (!m) fail(spec, item === '' ? 'an empty item in the list' : `'${item}' is not a line number or a range`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
  if (!Number.isSafeInteger(from) || (to !== Number.POSITIVE_INFINITY && !Number.isSafeInteger(to))) {
    fail(spec, `'${item}' is too large`);
  }
  if (from < 1) fail(spec, 'line numbers start at 1');
  if (to < from) fail(spec, `'${item}' ends before it starts`);
  return { from, to };
}

/** Sorts ranges and merges those that overlap or touch, so each line is shown once, in order. */
export function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

function parseGrep(spec: string, pattern: string): GrepRequest {
  let source = pattern;
  let flags = '';
  const delimited = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (delimited) {
    source = delimited[1] as string;
    flags = delimited[2] as string;
    if (!GREP_FLAGS.test(flags)) fail(spec, `unsupported flags '${flags}' (grep:/PATTERN/ takes i, s, u)`);
  }
  if (source === '') fail(spec, 'grep: needs a pattern');
  const kept = [...new Set(flags.replace(/[gm]/g, ''))].join('');
  try {
    return { kind: 'grep', source: pattern, regex: new RegExp(source, kept) };
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return fail(spec, `invalid regular expression: ${why}`);
  }
}
