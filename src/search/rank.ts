/**
 * Ranking candidate windows by their best line. The distinct lines of the candidate windows
 * that hold a query word are minisearch documents, and minisearch scores each line for each
 * query word (BM25+, prefix matching) under the statistics of everything searched: each term's
 * idf over the candidate lines is rescaled to the word's idf over the whole store (from the
 * scan's counts: how many windows of all the outputs hold it, of how many). A word counts on a
 * line by the best way it is found there (a whole token, a part of one, the start of either,
 * inside one, a near spelling); a window scores its best line, and a word found only on the
 * window's other lines adds half its best worth. A window is worth no more for repeating a
 * word on several lines, and no less for the context around its line: among hits alike (one
 * warning printed for many files), the scores tie, and the earliest comes first, as a reader of
 * the output meets it.
 *
 * Lines are tokenized with search's own tokenizer (identifiers whole and by parts). A part of a
 * compound is indexed as `^part`, and a query word of 4+ characters found inside a longer token
 * (`refused` in `ECONNREFUSED`) as the marker term `~refused`, so minisearch can weigh them.
 */
import MiniSearch, { type SearchOptions } from 'minisearch';
import { cleanLine } from '../summary/clean.js';
import { tokenizeLine } from './tokenize.js';

/** How much a word counts on a line, by how it is found there (minisearch's boostTerm). */
const MATCH_WORTH = { whole: 1, part: 0.85, inside: 0.5, near: 0.5 } as const;
/**
 * BM25+ for lines: a word repeated on a line counts a little more (twice: about 1.13 times),
 * and a long line a little less (40 compounds: about 0.8 times a line of one).
 */
const BM25 = { k: 0.5, b: 0.3, d: 0.5 };
/** The line length BM25 weighs against (in compounds), the same for every query. */
const LINE_WORDS = 10;
/** Weight of a token a word starts (before minisearch's decay with the letters left). */
const PREFIX_WORTH = 0.7;
/** Worth of a word found in the window but not on its best line. */
const ELSEWHERE = 0.5;
const MIN_PREFIX = 3;
const MIN_INSIDE = 4;
const INSIDE = '~';
const PART = '^';

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

/** Which query words one line holds, and its terms for the index. */
export interface LineMatch {
  /** Per word: 1 when the line holds it, else 0. */
  q: number[];
  /** Terms that matched (tokens; `~word` for a word found inside a token). */
  terms: string[];
  /** The same, as indexed: a part of a compound as `^part`; once per compound. */
  indexed: string[];
  /** Compounds on the line (its length in words). */
  size: number;
}

/** True when token `t` can match `w` (whole, or as its start). */
function matches(w: Word, t: string): boolean {
  if (w.near) return w.near.has(t);
  return t === w.label || (w.label.length >= MIN_PREFIX && t.startsWith(w.label));
}

/**
 * How lines match `words`, each distinct line worked out once (windows overlap, re-runs repeat
 * lines, and a hit's lines were ranked first): a line holding none of them in any case is no
 * match at once, without being tokenized (most lines of a window are context).
 */
export function lineMatcher(words: readonly Word[]): (text: string) => LineMatch {
  const cache = new Map<string, LineMatch>();
  const none: LineMatch = { q: words.map(() => 0), terms: [], indexed: [], size: 0 };
  const spellings = words.flatMap((w) => (w.near ? [...w.near] : [w.label]));
  return (text) => {
    let m = cache.get(text);
    if (!m) {
      const lower = text.toLowerCase();
      m = spellings.some((x) => lower.includes(x)) ? lineMatch(text, words, spellings) : none;
      cache.set(text, m);
    }
    return m;
  };
}

/** Which words one line holds, and the terms that match them (see LineMatch). */
function lineMatch(text: string, words: readonly Word[], spellings: readonly string[]): LineMatch {
  const q = words.map(() => 0);
  const terms = new Set<string>();
  const indexed: string[] = [];
  const inCompound = words.map(() => false);
  const seen: string[] = [];
  let whole = false;
  let compound = '';
  let size = 0;
  const flush = () => {
    words.forEach((w, i) => {
      if (w.near || w.label.length < MIN_INSIDE || inCompound[i] || !compound.includes(w.label)) return;
      terms.add(INSIDE + w.label);
      indexed.push(INSIDE + w.label);
      q[i] = 1;
    });
  };
  tokenizeLine(
    cleanLine(text),
    (t) => {
      const part = !whole;
      whole = false;
      let hit = false;
      for (let i = 0; i < words.length; i++) {
        if (!matches(words[i]!, t)) continue;
        hit = true;
        inCompound[i] = true;
        q[i] = 1;
      }
      if (!hit) return;
      const term = part ? PART + t : t;
      if (seen.includes(term)) return;
      seen.push(term);
      terms.add(t);
      indexed.push(term);
    },
    (lower) => {
      flush();
      inCompound.fill(false);
      seen.length = 0;
      compound = lower;
      size++;
      whole = true;
    },

    spellings,
  );
  flush();
  return { q, terms: [...terms], indexed, size };
}

const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** minisearch over lines, each as long as its compounds, against a fixed line length. */
class LineIndex extends MiniSearch<{ id: number; text: string }> {
  constructor() {
    super({
      fields: ['text'],
      tokenize: (text) => (text === '' ? [] : text.split(' ')),
      processTerm: (t) => t,
    });
  }

  setLengths(sizes: number[]): void {
    sizes.forEach((size, id) => {
      const lengths = this._fieldLength.get(this._idToShortId.get(id)!);
      if (lengths) lengths[0] = Math.max(1, size);
    });
    this._avgFieldLength = [LINE_WORDS];
  }
}

/** The queries for one word: each way it may be found, with its worth. */
function queriesOf(w: Word): { term: string; prefix: boolean; worth: number }[] {
  if (w.near) {
    return [...w.near].flatMap((s) => [
      { term: s, prefix: false, worth: MATCH_WORTH.near },
      { term: PART + s, prefix: false, worth: MATCH_WORTH.near },
    ]);
  }
  const prefix = w.label.length >= MIN_PREFIX;
  return [
    { term: w.label, prefix, worth: MATCH_WORTH.whole },
    { term: PART + w.label, prefix, worth: MATCH_WORTH.part },
    ...(w.label.length >= MIN_INSIDE
      ? [{ term: INSIDE + w.label, prefix: false, worth: MATCH_WORTH.inside }]
      : []),
  ];
}

/**
 * Per indexed line, per word, its score: minisearch's, for the best way the word is found on it.
 * Each term's idf over the lines is replaced by the word's idf over the store (`weight`).
 */
function scoreLines(index: LineIndex, lineDf: Map<string, number>, words: readonly Word[], weight: number[]) {
  const lines = index.documentCount;
  const scores = Array.from({ length: lines }, () => words.map(() => 0));
  const terms = [...lineDf.keys()];
  words.forEach((w, i) => {
    const options: SearchOptions = {
      tokenize: (s) => [s],
      processTerm: (t) => t,
      weights: { prefix: PREFIX_WORTH, fuzzy: 0 },
      bm25: BM25,
      boostDocument: (_id, term) => weight[i]! / idf(lines, lineDf.get(term) ?? 1),
    };
    for (const query of queriesOf(w)) {
      // A form no line holds is not searched (most lines hold a word one way or two).
      if (!lineDf.has(query.term) && !(query.prefix && terms.some((t) => t.startsWith(query.term)))) continue;
      const results = index.search(query.term, {
        ...options,
        prefix: query.prefix,
        boostTerm: () => query.worth,
      });
      for (const r of results) {
        const line = scores[r.id as number]!;
        if (r.score > line[i]!) line[i] = r.score;
      }
    }
  });
  return scores;
}

/** One window's rank (see the module comment); undefined when no word matches. */
function rankOne(doc: Doc, lineId: Map<string, number>, scores: number[][], match: (t: string) => LineMatch) {
  let best = 0;
  let bestQ: number[] | undefined;
  let bestAt = 0;
  const words = scores[0]?.length ?? 0;
  const anywhere: number[] = new Array(words).fill(0);
  const where: number[] = new Array(words).fill(-1);
  const terms = new Set<string>();
  for (let at = 0; at < doc.lines.length; at++) {
    const text = doc.lines[at]!;
    const id = lineId.get(text);
    if (id === undefined) continue;
    const q = scores[id]!;
    let s = 0;
    for (let i = 0; i < words; i++) {
      const v = q[i]!;
      s += v;
      if (v > anywhere[i]!) {
        anywhere[i] = v;
        where[i] = at;
      }
    }
    for (const t of match(text).terms) terms.add(t);
    if (s > best) {
      best = s;
      bestQ = q;
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
    rest += ELSEWHERE * v;
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
  // The distinct lines holding a query word, each a document.
  const lineId = new Map<string, number>();
  const texts: { id: number; text: string }[] = [];
  const sizes: number[] = [];
  const lineDf = new Map<string, number>();
  for (const d of docs) {
    for (const text of d.lines) {
      if (lineId.has(text)) continue;
      const m = match(text);
      if (m.indexed.length === 0) continue;
      lineId.set(text, texts.length);
      sizes.push(m.size);
      texts.push({ id: texts.length, text: m.indexed.join(' ') });
      for (const t of new Set(m.indexed)) lineDf.set(t, (lineDf.get(t) ?? 0) + 1);
    }
  }
  if (texts.length === 0) return [];
  const index = new LineIndex();
  index.addAll(texts);
  index.setLengths(sizes);
  const scores = scoreLines(index, lineDf, words, weight);
  const out: Ranked[] = [];
  for (const d of docs) {
    const r = rankOne(d, lineId, scores, match);
    if (r) out.push(r);
  }
  return out;
}
