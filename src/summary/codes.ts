/**
 * Rule codes of findings. A linter or a type checker tags each finding with its rule
 * (`[bugprone-sizeof-expression]`, `(reportCallIssue)`, `[-Wincomplete-patterns]`, `F821`,
 * `MD011/no-reversed-links`, `Lint/UselessAssignment`): hundreds of findings of a dozen rules,
 * and the one finding of a rule seen nowhere else is news, however its words read. The shapes
 * are of codes in general (a bracketed word, letters and digits, a path of names), not one
 * tool's format; only lines that name a location are findings.
 */
import { remembered } from '../memo.js';
import { isLocation } from './salience.js';

/** A code alone in brackets or parentheses at the end of the line. */
const TRAILING = /[[(](-?[A-Za-z][\w@.:/-]{1,58}[A-Za-z0-9])[\])]\s*$/;
/**
 * After the location and an optional level, the first word when it is shaped as a code:
 * letters then digits (`F821`, `TS2345`, `MD011/no-reversed-links`), a path of capitalised
 * names (`Lint/UselessAssignment`), or a name of two capitalised parts or more
 * (`UnusedLocalVariable`, `TypeError`).
 */
const LEADING =
  /^\s*\S*?(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\))[:,]?\s+(?:-\s+)?(?:(?:error|warning|note|info|[EWCRFI])\b:?\s+)?(\[?(?:[A-Z]{1,4}\d{2,5}(?:\/[\w-]+)?|[A-Z][a-z]+\/[A-Z]\w+|(?:[A-Z][a-z]+){2,})\]?)(?=[:\s]|$)/;

/** The rule code of a finding line, or undefined. */
export function findingCode(text: string): string | undefined {
  if (!isLocation(text)) return undefined;
  const lead = LEADING.exec(text)?.[1];
  if (lead !== undefined) return lead;
  const trail = TRAILING.exec(text)?.[1];
  // A frame's location in parentheses is no code.
  return trail !== undefined && !/:\d/.test(trail) && /[A-Za-z]{2}/.test(trail) ? trail : undefined;
}

/** A line's code, '' for none, remembered as the line's other pure functions are (src/memo.ts). */
const codeOf = remembered((text) => findingCode(text) ?? '');

/** Findings needed, and codes among them, before a code's rarity says anything. */
const MIN_FINDINGS = 20;
const MIN_CODES = 3;
/** The worth of a code seen once; it falls by CODE_FALL per doubling of its count. */
const CODE_WORTH = 4;
const CODE_FALL = 2;

/**
 * What a code, a kind or a message seen `count` times among many is worth: 4 once, 2 less per
 * doubling (codes here, kinds.ts, messages.ts).
 */
export const rarityWorth = (count: number) => Math.max(0, CODE_WORTH - CODE_FALL * Math.log2(count));

/** Counts one more `value` in `key`'s row of a table of counts (the row made on first use). */
export function countIn(table: Map<string, Map<string, number>>, key: string, value: string): void {
  let counts = table.get(key);
  if (!counts) {
    counts = new Map();
    table.set(key, counts);
  }
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

/**
 * The worth of each line's code being rare, learnt from the lines the summary chooses from
 * (each with how many lines it stands for): nothing for a line without a code, or when the
 * output has too few findings or codes to tell.
 */
export function codeRarity(lines: Iterable<{ text: string; count: number }>): (text: string) => number {
  const counts = new Map<string, number>();
  let findings = 0;
  for (const { text, count } of lines) {
    const code = codeOf(text);
    if (code === '') continue;
    counts.set(code, (counts.get(code) ?? 0) + count);
    findings += count;
  }
  if (findings < MIN_FINDINGS || counts.size < MIN_CODES) return () => 0;
  return (text) => {
    const code = codeOf(text);
    if (code === '') return 0;
    return rarityWorth(counts.get(code) ?? 1);
  };
}
