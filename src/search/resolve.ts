/**
 * Resolving query words against the indexes of the results searched.
 *
 * A query word is looked up as a whole token and, from 3 characters, as a prefix (`build`
 * finds `builds`, `lobject.c:431` finds `lobject.c:431:37`); if that finds nothing it falls back
 * on its parts (`cors/index.ts` → `cors` + `index.ts`); if still nothing (4+ characters), on
 * the word inside longer tokens, found by a scan of the stored text (`refused` in
 * `ECONNREFUSED`); if still nothing, on near spellings (one edit, same first letter, words of 6+
 * letters without digits: `conection` → `connection`), shown as such and counting half when
 * ranking; if still nothing, it is absent: it matches no line and is reported as absent. A
 * query with no word found for real (exactly, by prefix, by parts or inside a token) has hits
 * only if every word has a near spelling; so words found nowhere never bring hits.
 */
import type { IndexReader, Postings } from './index-file.js';
import type { QueryTerm } from './tokenize.js';
import { tokensOf } from './tokenize.js';

/** Weight of a token that only starts with the query word, scaled by how much of it matches. */
export const PREFIX_WEIGHT = 0.5;
/** Weight of a near spelling. */
export const FUZZY_WEIGHT = 0.45;
/** Most query words used (each must fit a bit of a mask). */
export const MAX_TERMS = 16;
const MIN_PREFIX = 3;
const MIN_FUZZY = 6;
const MIN_INSIDE = 4;

/** One result being searched. */
export interface Source {
  reader: IndexReader;
  /** Tokens of the result's note, if it has one. */
  noteTokens: string[];
}

/** A query word as found: how, under which tokens, where. */
export interface Leaf {
  label: string;
  how: 'exact' | 'prefix' | 'inside' | 'fuzzy';
  /** Tokens it was found under, with their weights. */
  weights: Map<string, number>;
  /** Postings per source index. */
  postings: Map<number, Postings[]>;
  /** Sources whose note matches. */
  notes: Set<number>;
}

export interface Resolved {
  leaves: Leaf[];
  absent: string[];
}

export function weightOf(query: string, token: string): number {
  return token === query ? 1 : (PREFIX_WEIGHT * query.length) / token.length;
}

/** Edit distance of at most one (insertion, deletion, substitution or transposition). */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return a === b;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const fuzzyEligible = (t: string) => t.length >= MIN_FUZZY && /^[\p{L}]+$/u.test(t);

function lookup(sources: Source[], find: (r: IndexReader) => Postings[]): Map<number, Postings[]> {
  const found = new Map<number, Postings[]>();
  sources.forEach((s, i) => {
    const p = find(s.reader);
    if (p.length > 0) found.set(i, p);
  });
  return found;
}

function notesMatching(sources: Source[], test: (t: string) => boolean): Set<number> {
  const hits = new Set<number>();
  sources.forEach((s, i) => {
    if (s.noteTokens.some(test)) hits.add(i);
  });
  return hits;
}

function leafOf(
  label: string,
  how: Leaf['how'],
  postings: Map<number, Postings[]>,
  notes: Set<number>,
  weight: (t: string) => number,
): Leaf {
  const weights = new Map<string, number>();
  for (const list of postings.values()) for (const p of list) weights.set(p.term, weight(p.term));
  return { label, how, weights, postings, notes };
}

/** Finds words inside longer tokens: per word, per source index (one scan of the stored text). */
export type FindInside = (words: string[]) => Map<string, Map<number, Postings[]>>;

/** Resolves each query word against the sources; see the module comment for the order. */
export function resolve(sources: Source[], terms: QueryTerm[], inside?: FindInside): Resolved {
  const leaves: Leaf[] = [];
  const pending: string[] = [];
  const visit = (qt: QueryTerm) => {
    const t = qt.token;
    const mode = t.length >= MIN_PREFIX ? 'prefix' : 'exact';
    const found = lookup(sources, (r) => r.find(t, mode));
    const notes = notesMatching(sources, (n) => (mode === 'prefix' ? n.startsWith(t) : n === t));
    if (found.size > 0 || notes.size > 0) {
      const exactOnly = [...found.values()].every((l) => l.every((p) => p.term === t));
      leaves.push(leafOf(t, exactOnly ? 'exact' : 'prefix', found, notes, (x) => weightOf(t, x)));
    } else if (qt.parts.length > 0) {
      for (const p of qt.parts) visit(p);
    } else {
      pending.push(t);
    }
  };
  for (const qt of terms.slice(0, MAX_TERMS)) visit(qt);
  // Words no token equals or starts with: inside longer tokens (one scan for all), else near
  // spellings, else absent.
  const within = inside
    ? inside(pending.filter((t) => t.length >= MIN_INSIDE))
    : new Map<string, Map<number, Postings[]>>();
  const absent: string[] = [];
  for (const t of pending) {
    const found = within.get(t);
    if (found && found.size > 0) {
      leaves.push(leafOf(t, 'inside', found, new Set(), () => PREFIX_WEIGHT));
      continue;
    }
    if (fuzzyEligible(t)) {
      const near = (x: string) => withinOneEdit(t, x);
      const fuzzy = lookup(sources, (r) =>
        r.mayHoldNear(t) ? r.find(t[0] as string, 'prefix', 8, near) : [],
      );
      const fuzzyNotes = notesMatching(sources, near);
      if (fuzzy.size > 0 || fuzzyNotes.size > 0) {
        leaves.push(leafOf(t, 'fuzzy', fuzzy, fuzzyNotes, () => FUZZY_WEIGHT));
        continue;
      }
    }
    absent.push(t);
  }
  // Near spellings never stand in for words found nowhere: with no word found for real, they
  // count only if every word has one (a query typed with typos), else nothing matches.
  if (absent.length > 0 && leaves.every((l) => l.how === 'fuzzy')) {
    return { leaves: [], absent: [...leaves.map((l) => l.label), ...absent] };
  }
  return { leaves: leaves.slice(0, MAX_TERMS), absent };
}

/** Note tokens for a source. */
export function noteTokens(note: string | undefined): string[] {
  return note ? tokensOf(note) : [];
}
