/**
 * Kinds of findings in their own words. Many tools name a finding's kind with a word of the line
 * rather than a code of a known shape: a level and a tag (`I: pkg: spelling-error-in-description`),
 * a rule before its message (`no-jinja-when: No Jinja2 in when.`, `path:79   UndefinedVariable
 * Avoid …`), the misspelt word itself (`path:27: guarenteed ==> guaranteed`). Among lines that
 * start alike, one of the first words is such a column of kinds when its values repeat (a few
 * values for many lines); a line whose value there is seen once or twice is news, however its
 * words read, as a rare rule code is (see codes.ts).
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */
import { countIn, rarityWorth } from './codes.js';

/** The first words of a line read for its kind. */
const WORDS = 3;
/** Lines of a column needed before its values say anything. */
const MIN_LINES = 20;
/** Values of a column needed: fewer are a level or a constant word. */
const MIN_VALUES = 3;
/** At most this share of a column's lines may be distinct values: more, and it holds names. */
const MAX_SHARE = 1 / 4;

/** A word that may name a kind: letters, no path, no location, no number alone, no quote. */
const KIND_WORD = /^[A-Za-z][\w.[\]/-]{1,58}$/;
const CODED = /^[A-Za-z]+\d{1,5}(?:[/-][A-Za-z][\w-]*)?$/;
const LOCATED = /:\d|\(\d+,\d+\)|^\.{0,2}\//;

/** The word as a kind, without its trailing punctuation, or ''. */
function kindOf(word: string): string {
  const w = word.replace(/[:,;]+$/, '');
  if (!KIND_WORD.test(w) || LOCATED.test(word) || /\.\w+$/.test(w)) return '';
  // Digits only as a code has them (`F821`, `MD011/no-reversed-links`): not a hash, not a version.
  return (/\d/.test(w) && !CODED.test(w)) || /^[\da-f]{7,}$/i.test(w) ? '' : w;
}

/**
 * Lines start alike when their first word is alike: a place (`src/a.rs:27:`, `lib/x.pm:`) or a
 * tag (`I:`, `no-jinja-when:`). Other lines (indented, or opening with a word: a test's title,
 * prose) are no findings: '' for them.
 */
function startOf(text: string): string {
  if (/^\s/.test(text)) return '';
  const first = text.split(/\s/, 1)[0] ?? '';
  return LOCATED.test(first) || /[/\\]/.test(first) ? 'P' : first.endsWith(':') ? ':' : '';
}

/** A rare kind's worth and a tag for it: a line of a rare kind is a template of its own. */
export interface KindRarity {
  worth(text: string): number;
  /** `''`, or the column and the rare value (appended to the template's key). */
  tag(text: string): string;
}

const NONE: KindRarity = { worth: () => 0, tag: () => '' };

/** The worth of each line's rarest kind (see rarityWorth), learnt from `lines`. */
export function kindRarity(lines: Iterable<string>): KindRarity {
  // Per column (a start and a position): each value's count, and how many lines it has.
  const columns = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  const parts: { text: string; cols: string[]; values: string[] }[] = [];
  for (const text of lines) {
    if (text.length < 8) continue;
    const start = startOf(text);
    if (start === '') continue;
    const words = text.trim().split(/\s+/, WORDS);
    const cols: string[] = [];
    const values: string[] = [];
    for (let j = 0; j < words.length; j++) {
      const value = kindOf(words[j] as string);
      if (value === '') continue;
      const col = `${start}${j}`;
      countIn(columns, col, value);
      sizes.set(col, (sizes.get(col) ?? 0) + 1);
      cols.push(col);
      values.push(value);
    }
    if (cols.length > 0) parts.push({ text, cols, values });
  }
  const kinds = new Set<string>();
  for (const [col, counts] of columns) {
    const n = sizes.get(col) ?? 0;
    if (n >= MIN_LINES && counts.size >= MIN_VALUES && counts.size <= n * MAX_SHARE) kinds.add(col);
  }
  if (kinds.size === 0) return NONE;
  const rare = new Map<string, { worth: number; tag: string }>();
  for (const { text, cols, values } of parts)
    cols.forEach((col, i) => {
      if (!kinds.has(col)) return;
      const value = values[i] as string;
      const worth = rarityWorth(columns.get(col)?.get(value) ?? 1);
      if (worth > (rare.get(text)?.worth ?? 0)) rare.set(text, { worth, tag: `\u0001${col}:${value}` });
    });
  return { worth: (text) => rare.get(text)?.worth ?? 0, tag: (text) => rare.get(text)?.tag ?? '' };
}
