/**
 * Ranking candidate windows with minisearch (BM25+, prefix and fuzzy matching) under the
 * statistics of everything searched, not only of the candidates: the scan counted how many
 * windows of all the outputs hold each query word, and how many windows there are. minisearch
 * is told the global window count and an average window length estimated from the candidates'
 * terms per byte, and each term's score is rescaled from the candidates' idf to the global one
 * (boostDocument), so a rare word outweighs a common one as it would over the whole store.
 *
 * Documents are tokenized with search's own tokenizer (identifiers whole and by parts); a query
 * word of 4+ characters found inside a longer token (`refused` in `ECONNREFUSED`) is indexed
 * under a marker term `~refused`, which ranks at INSIDE_WEIGHT.
 */
import MiniSearch from 'minisearch';
import { cleanLine } from '../summary/clean.js';
import { tokenizeLine } from './tokenize.js';

/** Weight of a query word found inside a longer token. */
export const INSIDE_WEIGHT = 0.5;
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
  /** Terms that matched (document terms; `~word` for a word found inside a token). */
  terms: Set<string>;
}

/** minisearch, told the statistics of the whole store before it scores. */
class WindowIndex extends MiniSearch<{ id: number; text: string; length: number }> {
  /**
   * Sets each window's length to all its distinct terms: its text holds only those a query
   * word can match (minisearch would count every term, then index only those).
   */
  useLengths(docs: { id: number; length: number }[]): void {
    for (const d of docs) {
      const lengths = this._fieldLength.get(this._idToShortId.get(d.id)!);
      if (lengths) lengths[0] = d.length;
    }
  }

  useGlobalStats(documents: number, avgLength: number): void {
    this._documentCount = documents;
    this._avgFieldLength = this._avgFieldLength.map(() => avgLength);
  }
}

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The terms of a window: its tokens, and `~word` for each query word found inside a token. */
export function termsOf(
  lines: string[],
  words: readonly string[],
  cache = new Map<string, string[]>(),
): string[] {
  const terms: string[] = [];
  const inside = words.filter((w) => w.length >= MIN_INSIDE);
  for (const line of lines) {
    const known = cache.get(line);
    if (known) {
      for (const t of known) terms.push(t);
      continue;
    }
    const from = terms.length;
    let compound: string[] = [];
    let whole = '';
    const flush = () => {
      for (const w of inside) {
        if (whole.includes(w) && !compound.some((t) => t.startsWith(w))) terms.push(INSIDE + w);
      }
    };
    tokenizeLine(
      cleanLine(line),
      (t) => {
        terms.push(t);
        compound.push(t);
      },
      (lower) => {
        flush();
        compound = [];
        whole = lower;
      },
    );
    flush();
    cache.set(line, terms.slice(from));
  }
  return terms;
}

/**
 * Scores `docs` for `words` over a store of `windows` windows holding `bytes` bytes; returns
 * the documents that match at least one word, in no order.
 */
export function rankWindows(
  docs: Doc[],
  words: Word[],
  store: { windows: number; bytes: number },
  /** Terms per distinct line (see termsOf), shared with the caller for the same words. */
  cache = new Map<string, string[]>(),
): Ranked[] {
  const labels = words.map((w) => w.label);
  const localDf = new Map<string, number>();
  let unique = 0;
  let bytes = 0;
  // Every term counts in a window's length; only those a query word can match are indexed
  // (given to minisearch at all), which keeps its work and its tree small.
  const matchable = (t: string) =>
    words.some((w) =>
      w.near
        ? w.near.has(t)
        : t === w.label || t === INSIDE + w.label || (w.label.length >= MIN_PREFIX && t.startsWith(w.label)),
    );
  const isMatchable = new Map<string, boolean>();
  // Windows overlap (and re-runs repeat lines): each distinct line is tokenized once.
  const texts = docs.map((d) => {
    const terms = termsOf(d.lines, labels, cache);
    const distinct = new Set(terms);
    unique += distinct.size;
    for (const line of d.lines) bytes += Buffer.byteLength(line) + 1;
    for (const t of distinct) localDf.set(t, (localDf.get(t) ?? 0) + 1);
    const kept: string[] = [];
    for (const t of terms) {
      let yes = isMatchable.get(t);
      if (yes === undefined) {
        yes = matchable(t);
        isMatchable.set(t, yes);
      }
      if (yes) kept.push(t);
    }
    return { id: d.id, text: kept.join(' '), length: distinct.size };
  });
  const index = new WindowIndex({
    fields: ['text'],
    tokenize: (text) => (text === '' ? [] : text.split(' ')),
    processTerm: (t) => t,
  });
  index.addAll(texts);
  index.useLengths(texts);
  const n = Math.max(store.windows, docs.length);
  const avg = bytes > 0 ? Math.max(1, (unique / bytes) * (store.bytes / Math.max(1, store.windows))) : 1;
  index.useGlobalStats(n, avg);
  const out = new Map<number, Ranked>();
  words.forEach((word, i) => {
    const global = idf(n, Math.max(1, Math.min(word.df, n)));
    const q = word.label;
    const results = index.search(
      {
        combineWith: 'OR',
        queries: [
          { queries: [q], prefix: !word.near && q.length >= MIN_PREFIX, fuzzy: word.near ? 2 : false },
          ...(q.length >= MIN_INSIDE && !word.near
            ? [{ queries: [INSIDE + q], prefix: false, fuzzy: false, boostTerm: () => INSIDE_WEIGHT }]
            : []),
        ],
      },
      {
        tokenize: (s) => [s],
        processTerm: (t) => t,
        boostDocument: (_id, term) => {
          if (word.near) return word.near.has(term) ? 1 : 0;
          return global / idf(n, localDf.get(term) ?? 1);
        },
      },
    );
    for (const r of results) {
      const ranked = out.get(r.id) ?? { id: r.id as number, score: 0, mask: 0, terms: new Set<string>() };
      ranked.score += r.score;
      ranked.mask |= 1 << i;
      for (const t of Object.keys(r.match)) ranked.terms.add(t);
      out.set(r.id, ranked);
    }
  });
  return [...out.values()];
}
