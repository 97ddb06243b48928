/**
 * Within a template, the member whose variable parts are rare: the one `500` among 250 `200`s of
 * an access log, the one `4.1MB` among the `kB` sizes of a package listing, the one `FAILED`
 * among `PASSED`. The members of a template (same key, same number of words) are aligned word by
 * word; a position whose values are mostly one (by exact value, or else by its shape with digits
 * masked) and rarely another is a column with a norm, and a member that breaks the norm is worth
 * the surprisal of its value. A column of names (all different) says nothing.
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */

import { extensionBits } from './extensions.js';

/** A template needs this many members before a column has a norm. */
const MIN_MEMBERS = 8;
/** The share of a column's commonest value that makes it the norm. */
const NORM = 0.6;
/** The most a value may have of a column's members and still be rare. */
const RARE = 0.1;
/** The longest value of a column with a norm: a status, a size, a code, a mark. */
const MAX_VALUE = 16;
/** The most worth a rare value adds. */
const MAX_WORTH = 3;

interface Line {
  text: string;
  key: string;
}

const hasDigit = (word: string) => /\d/.test(word);
const wordsOf = (text: string) => text.trim().split(/\s+/);
const shapeOf = (word: string) => word.replace(/\d+/g, '#');
/**
 * A number by its exact value (a status, a return value, a code); any other word by its shape,
 * digits masked: a time, a version, a duration change as a clock or a counter does, and only
 * their unit or their form (`4.1MB` among `#kB`) can break a norm.
 */
const exact = (word: string) => (/^[-+]?\d+$/.test(word) ? word : shapeOf(word));

/** How surprising each value of one column is, in bits: by its norm, or by its size (see outliers). */
function columnBits(values: string[]): Map<string, { bits: number; as: string }> | undefined {
  const bits = normBits(values);
  const big = outliers(values);
  if (big.length === 0) return bits;
  const out = bits ?? new Map<string, { bits: number; as: string }>();
  const worth = Math.log2(values.length / big.length);
  for (const v of big) if (!out.has(v)) out.set(v, { bits: worth, as: `>${v}` });
  return out;
}

/** How surprising each value of one column is, in bits (0 when the column has no norm). */
function normBits(values: string[]): Map<string, { bits: number; as: string }> | undefined {
  const n = values.length;
  // First without counting (most columns are a template's constant words, or names): a column of
  // paths or long words holds names (a file, a message) and has no norm to break; a constant
  // column has no value to break it; one without digits holds words, not quantities.
  let digits = false;
  let varies = false;
  const first = values[0];
  for (const v of values) {
    if (v.length > MAX_VALUE || v.includes('/') || v.includes('\\')) return undefined;
    digits ||= hasDigit(v);
    varies ||= v !== first;
  }
  if (!varies || !digits) return undefined;
  // Each distinct value once: most columns hold a few values many times.
  const raw = new Map<string, number>();
  for (const v of values) raw.set(v, (raw.get(v) ?? 0) + 1);
  for (const view of [exact, shapeOf]) {
    const counts = new Map<string, number>();
    for (const [v, c] of raw) counts.set(view(v), (counts.get(view(v)) ?? 0) + c);
    if (counts.size < 2) return undefined;
    let norm = '';
    for (const [k, c] of counts) if (c > (counts.get(norm) ?? 0)) norm = k;
    if ((counts.get(norm) ?? 0) < NORM * n) continue;
    // A norm and a value that break it are quantities (a status, a size, a count): words that
    // differ are names, or another line the miner took for a member.
    if (![...raw.keys()].some((v) => view(v) === norm && hasDigit(v))) return undefined;
    const bits = new Map<string, { bits: number; as: string }>();
    for (const v of raw.keys()) {
      const c = counts.get(view(v)) ?? n;
      if (c <= RARE * n && hasDigit(v)) bits.set(v, { bits: Math.log2(n / c), as: view(v) });
    }
    return bits;
  }
  return undefined;
}

/** A value's size: a count or a size with its unit (`359`, `2.17K`, `782.6kB`, `(0.202`), or NaN. */
function magnitude(word: string): number {
  const c = word.charCodeAt(0);
  if ((c < 48 || c > 57) && c !== 40 && c !== 91) return Number.NaN;
  const m = /^[([]?(\d+(?:\.\d+)?)([kKMGT]?)(?:i?B)?[)\],;:]?$/.exec(word);
  if (m === null) return Number.NaN;
  return Number(m[1]) * (UNIT[m[2] as string] ?? 1);
}
const UNIT: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** How many times the next smaller value an outlier is. */
const GAP = 8;
/** The most values above the gap: a few outliers, not a column of two kinds. */
const MAX_OUTLIERS = 3;

/**
 * The values of a column of sizes or counts that are far above all the others: the one 782.6kB
 * file among files of 74kB or less, the 359 calls among 36 or fewer. The largest few values, each
 * at least GAP times the next below the last of them, when nine values of ten or more are sizes.
 */
function outliers(values: string[]): string[] {
  const sized: { v: string; m: number }[] = [];
  // A few other lines the miner took for members (a heading among sizes) are read past; more,
  // and the column holds no sizes (most columns are words: they stop at once).
  const most = values.length - (1 - RARE) * values.length;
  let others = 0;
  for (const v of values) {
    const m = magnitude(v);
    if (!Number.isNaN(m)) sized.push({ v, m });
    else if (++others > most) return [];
  }
  if (sized.length < MIN_MEMBERS) return [];
  sized.sort((a, b) => b.m - a.m);
  const few = Math.min(MAX_OUTLIERS, Math.max(1, Math.floor(sized.length * RARE)));
  for (let k = 1; k <= few; k++) {
    const below = (sized[k] as { m: number }).m;
    if ((sized[k - 1] as { m: number }).m >= GAP * Math.max(below, 1))
      return sized.slice(0, k).map((x) => x.v);
  }
  return [];
}

/** A rare part's worth, and a tag for it: a member with a rare value is a template of its own. */
export interface SlotRarity {
  worth(text: string): number;
  /** `''`, or the column and the value that breaks its norm (appended to the template's key). */
  tag(text: string): string;
}

/**
 * The worth of each line's rarest variable part, by its text: at most MAX_WORTH, 0 for a line
 * whose every part is as its template's members have it.
 */
export function slotRarity(lines: Iterable<Line>): SlotRarity {
  const all = [...lines];
  // Only a template of MIN_MEMBERS lines or more has columns with a norm: the others are not split.
  const size = new Map<string, number>();
  for (const { key } of all) size.set(key, (size.get(key) ?? 0) + 1);
  const groups = new Map<string, { text: string; words: string[] }[]>();
  for (const { text, key } of all) {
    if ((size.get(key) ?? 0) < MIN_MEMBERS) continue;
    const words = wordsOf(text);
    const g = `${key}\u0000${words.length}`;
    const list = groups.get(g);
    if (list) list.push({ text, words });
    else groups.set(g, [{ text, words }]);
  }
  const rare = new Map<string, { worth: number; tag: string }>();
  for (const members of groups.values()) {
    if (members.length < MIN_MEMBERS) continue;
    const width = (members[0] as { words: string[] }).words.length;
    for (let j = 0; j < width; j++) {
      const column = members.map((m) => m.words[j] as string);
      // A column of paths: by the kinds of files they name (see extensions.ts).
      const bits = columnBits(column) ?? extensionBits(column);
      if (!bits) continue;
      for (const m of members) {
        const b = bits.get(m.words[j] as string);
        if (b === undefined) continue;
        const worth = Math.min(MAX_WORTH, b.bits / 2);
        if (worth > (rare.get(m.text)?.worth ?? 0)) rare.set(m.text, { worth, tag: `\u0000${j}:${b.as}` });
      }
    }
  }
  return { worth: (text) => rare.get(text)?.worth ?? 0, tag: (text) => rare.get(text)?.tag ?? '' };
}
