/**
 * What must never reach the agent from a stored output, applied to every line ctxwrap prints
 * from one (summary, read, search): the lines of a PEM private-key block are masked whole, by
 * their line numbers (found while capturing), and known credential formats are masked in the
 * others.
 */
import { keyBlockStep, mask, redactLine } from './redact.js';

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
  return (line, text) => {
    const range = keyRanges.find((r) => line >= r.from && line <= r.to);
    return range ? inKeyBlock(text, line > range.from) : redactLine(text);
  };
}

// A run of base64 long enough to be part of a key, whatever surrounds it.
const KEY_LIKE = /[A-Za-z0-9+/=]{24}/;

/**
 * A line within a key block's range: its key parts masked (from the BEGIN marker on, or whole);
 * a line that cannot be part of a key (prose after a truncated key) is shown like any other
 * unless it holds a run of base64.
 */
function inKeyBlock(text: string, afterBegin: boolean): string {
  const step = keyBlockStep(text, afterBegin);
  if (step.continues || step.keys > 0) return redactLine(step.text);
  if (!afterBegin || KEY_LIKE.test(text)) return `${/^\s*/.exec(text)?.[0] ?? ''}${mask('private-key')}`;
  return redactLine(text);
}
