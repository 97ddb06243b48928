/**
 * Ranking candidate windows by their best line. A window scores what its best line holds: each
 * query word on that line is worth its rarity over everything searched (idf from the scan's
 * counts: how many windows of all the outputs hold it, of how many) times how closely it
 * matches (a whole token, a part of one, the start of one, inside one, a near spelling); a word
 * found only on the window's other lines adds half its worth. A window is worth no more for
 * repeating a word on several lines, and no less for the context around its line: among hits
 * alike (one warning printed for many files), the scores tie, and the earliest comes first, as
 * a reader of the output meets it.
 *
 * Lines are tokenized with search's own tokenizer (identifiers whole and by parts); a query
 * word of 4+ characters found inside a longer token (`refused` in `ECONNREFUSED`) is the marker
 * term `~refused`.
 */
import { cleanLine } from '../summary/clean.js';
import { tokenizeLine } from './tokenize.js';

/** How much a word counts on a line, by how it matches a token of it. */
const MATCH_WORTH = { whole: 1, part: 0.85, prefix: 0.7, inside: 0.5, near: 0.5 } as const;
/** Added to a word's worth on a line for each doubling of its count there. */
const REPEAT_WORTH = 0.15;
/** Worth of a word found in the window but not on its best line. */
const ELSEWHERE = 0.5;
const MIN_PREFIX = 3;
const MIN_INSIDE = 4;
const INSIDE = '~';

export interface Doc {
  id: number;
  /** The lines of the window as read. */
  lines: string[];
}

export interface Word {
  /** The word as searched (lowercase). */
  label: string;
  /** Windows of everything searched that hold it (from the scan). */
  df: number;
  /** For a word found only under near spellings: those spellings (the only terms it matches). */
  near?: ReadonlySet<string>;
}

export interface Ranked {
  id: number;
  score: number;
  /** Bit i set when word i matched. */
  mask: number;
  /** Terms that matched (line tokens; `~word` for a word found inside a token). */
  terms: Set<string>;
  /** Indexes of the lines that make the score: the best line, then a line for each other word. */
  focus: number[];
}

/** How one line matches the query words: per word (0: not at all), and the terms that matched. */
export interface LineMatch {
  q: number[];
  terms: string[];
  /** Compounds on the line (its length in words). */
  size: number;
}

/**
 * Factor of a line's score by its length in compounds: of two lines holding the same words, the
 * shorter says more about them (`741 E501 line too long`, a count, over one more E501 line).
 */
const lengthFactor = (size: number) => 1 - LONG_LINE_COST * Math.min(1, size / LONG_LINE_WORDS);
const LONG_LINE_COST = 0.2;
const LONG_LINE_WORDS = 40;

/** How a token matches `w` (0: not), `whole` when it is a compound whole, not a part of one. */
function worthOf(w: Word, t: string, whole: boolean): number {
  if (w.near) return w.near.has(t) ? MATCH_WORTH.near : 0;
  if (t === w.label) return whole ? MATCH_WORTH.whole : MATCH_WORTH.part;
  return w.label.length >= MIN_PREFIX && t.startsWith(w.label) ? MATCH_WORTH.prefix : 0;
}

/**
 * How lines match `words`, each distinct line worked out once (windows overlap, re-runs repeat
 * lines, and a hit's lines were ranked first): a line holding none of them in any case is no
 * match at once, without being tokenized (most lines of a window are context).
 */
export function lineMatcher(words: readonly Word[]): (text: string) => LineMatch {
  const cache = new Map<string, LineMatch>();
  const none: LineMatch = { q: words.map(() => 0), terms: [], size: 0 };
  const spellings = words.flatMap((w) => (w.near ? [...w.near] : [w.label]));
  return (text) => {
    let m = cache.get(text);
    if (!m) {
      const lower = text.toLowerCase();
      m = spellings.some((x) => lower.includes(x)) ? lineMatch(text, words) : none;
      cache.set(text, m);
    }
    return m;
  };
}

/** Per query word, how closely one line matches it, and the terms that did. */
function lineMatch(text: string, words: readonly Word[]): LineMatch {
  const q = words.map(() => 0);
  const terms = new Set<string>();
  const inCompound = words.map(() => false);
  const tf = words.map(() => 0);
  let whole = false;
  let compound = '';
  let size = 0;
  const flush = () => {
    words.forEach((w, i) => {
      if (w.near || w.label.length < MIN_INSIDE || inCompound[i] || !compound.includes(w.label)) return;
      terms.add(INSIDE + w.label);
      if (q[i]! < MATCH_WORTH.inside) q[i] = MATCH_WORTH.inside;
    });
  };
  tokenizeLine(
    cleanLine(text),
    (t) => {
      for (let i = 0; i < words.length; i++) {
        const v = worthOf(words[i]!, t, whole);
        if (v === 0) continue;
        terms.add(t);
        if (!inCompound[i]) tf[i]!++;
        inCompound[i] = true;
        if (v > q[i]!) q[i] = v;
      }
      whole = false;
    },
    (lower) => {
      flush();
      inCompound.fill(false);
      compound = lower;
      size++;
      whole = true;
    },
  );
  flush();
  // A word repeated on the line (`timeout waiting (timeout 30s)`) counts a little more.
  for (let i = 0; i < q.length; i++) if (tf[i]! > 1) q[i]! *= 1 + REPEAT_WORTH * Math.log2(tf[i]!);
  return { q, terms: [...terms], size };
}

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** One window's rank (see the module comment); undefined when no word matches. */
function rankOne(doc: Doc, words: readonly Word[], weight: number[], match: (text: string) => LineMatch) {
  let best = 0;
  let bestQ: number[] | undefined;
  let bestAt = 0;
  const anywhere = words.map(() => 0);
  const where = words.map(() => -1);
  const terms = new Set<string>();
  for (const [at, text] of doc.lines.entries()) {
    const m = match(text);
    let s = 0;
    for (let i = 0; i < m.q.length; i++) {
      s += weight[i]! * m.q[i]!;
      if (m.q[i]! > anywhere[i]!) {
        anywhere[i] = m.q[i]!;
        where[i] = at;
      }
    }
    s *= lengthFactor(m.size);
    for (const t of m.terms) terms.add(t);
    if (s > best) {
      best = s;
      bestQ = m.q;
      bestAt = at;
    }
  }
  if (!bestQ) return undefined;
  let rest = 0;
  let mask = 0;
  const focus = new Set([bestAt]);
  anywhere.forEach((v, i) => {
    if (v > 0) mask |= 1 << i;
    if (bestQ[i] !== 0 || v === 0) return;
    rest += ELSEWHERE * weight[i]! * v;
    focus.add(where[i]!);
  });
  // Rounded: windows alike tie exactly (then the earlier one wins), whatever the float noise.
  return { id: doc.id, score: Math.round((best + rest) * 1e6) / 1e6, mask, terms, focus: [...focus] };
}

/**
 * Scores `docs` for `words` over a store of `windows` windows; returns the documents that match
 * at least one word, in no order.
 */
export function rankWindows(
  docs: Doc[],
  words: Word[],
  store: { windows: number },
  match = lineMatcher(words),
): Ranked[] {
  const n = Math.max(store.windows, docs.length);
  const weight = words.map((w) => idf(n, Math.max(1, Math.min(w.df, n))));
  const out: Ranked[] = [];
  for (const d of docs) {
    const r = rankOne(d, words, weight, match);
    if (r) out.push(r);
  }
  return out;
}
