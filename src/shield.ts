/**
 * What must never reach the agent from a stored output, applied to every line ctxwrap prints
 * from one (summary, read, search): the lines of a PEM private-key block are masked whole, by
 * their line numbers (found while capturing), and known credential formats are masked in the
 * others.
 */
import { mask, redactLine } from './redact.js';

/** Lines `from` to `to`, inclusive, 1-based. */
export interface LineRange {
  from: number;
  to: number;
}

/** Masks one cleaned line, given its line number in the stored file. */
export type Shield = (line: number, text: string) => string;

/** The identity: for `--no-redact`. */
export const NO_SHIELD: Shield = (_line, text) => text;

export function shieldFor(keyRanges: readonly LineRange[] = [], enabled = true): Shield {
  if (!enabled) return NO_SHIELD;
  return (line, text) =>
    keyRanges.some((r) => line >= r.from && line <= r.to)
      ? `${/^\s*/.exec(text)?.[0] ?? ''}${mask('private-key')}`
      : redactLine(text);
}
