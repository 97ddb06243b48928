import { CtxwrapError, quoted } from './errors.js';

/** Parses a whole number from `min` to `max` (`_` separators allowed); a one-line error names `what`. */
export function parseWhole(text: string, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text.replace(/_/g, ''));
  if (!/^\s*\d[\d_]*\s*$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new CtxwrapError(`${what} takes a whole number ${range} (got '${quoted(text)}')`);
  }
  return n;
}

/** Parses a number from 0 to 1 (`0.7`, `.5`, `1`). */
export function parseRatio(text: string, what: string): number {
  const n = Number(text);
  if (!/^\s*\d*\.?\d+\s*$/.test(text) || n < 0 || n > 1)
    throw new CtxwrapError(`${what} takes a number from 0 to 1 (got '${quoted(text)}')`);
  return n;
}
