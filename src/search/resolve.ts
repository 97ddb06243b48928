/**
 * From query words to what is scanned for. A query word is scanned for whole (`cors/index.ts`,
 * `TS2345`), and so are its parts (`cors`, `index.ts`, `index`, `ts`), all in the same pass; a
 * word found nowhere falls back on its parts. A word of 6+ letters found nowhere, not even by
 * parts, may stand for a near spelling in the windows the other words found (one edit: a letter
 * added, dropped, changed, or two swapped, same first letter: `conection` → `connection`), see
 * search.ts; else it is absent.
 */
import type { QueryTerm } from './tokenize.js';

/** Most query words used. */
const MAX_TERMS = 16;
const MIN_FUZZY = 6;

/** Every token of the query trees, each once, the wholes first. */
export function literalsOf(terms: QueryTerm[]): string[] {
  const out = new Set<string>();
  const visit = (t: QueryTerm) => {
    out.add(t.token);
    for (const p of t.parts) visit(p);
  };
  for (const t of terms.slice(0, MAX_TERMS)) visit(t);
  return [...out].slice(0, 63);
}

/** A query word and the words it is searched as (see groups.ts). */
export interface Chosen {
  label: string;
  words: string[];
  byParts: boolean;
  oneLine: boolean;
}

/** True when a query word's parts are the segments of a path (`/ \ : @`), not its words. */
const bySegments = (token: string) => /[^/\\:@][/\\:@]+[^/\\:@]/.test(token);

/**
 * The words searched for (found somewhere), grouped by the query word they stand for, and the
 * query words found nowhere, whole or by parts (every part of a joined word must be found).
 */
export function chooseWords(
  terms: QueryTerm[],
  found: (token: string) => boolean,
): { words: string[]; absent: string[]; groups: Chosen[] } {
  const groups: Chosen[] = [];
  const absent: string[] = [];
  const leaves = (t: QueryTerm): string[] => (t.parts.length === 0 ? [t.token] : t.parts.flatMap(leaves));
  const visit = (t: QueryTerm, byParts: boolean) => {
    if (found(t.token)) groups.push({ label: t.token, words: [t.token], byParts, oneLine: false });
    else if (t.parts.length === 0) absent.push(t.token);
    else if (bySegments(t.token)) for (const p of t.parts) visit(p, true);
    else {
      const parts = [...new Set(leaves(t))];
      if (parts.every(found)) groups.push({ label: t.token, words: parts, byParts: true, oneLine: true });
      else absent.push(t.token);
    }
  };
  for (const t of terms.slice(0, MAX_TERMS)) visit(t, false);
  const kept: Chosen[] = [];
  const words: string[] = [];
  for (const g of groups) {
    if (kept.some((k) => k.label === g.label)) continue;
    const more = g.words.filter((w) => !words.includes(w));
    if (words.length + more.length > 30) break;
    words.push(...more);
    kept.push(g);
  }
  return { words, absent: [...new Set(absent)], groups: kept };
}

/** The scan's forms of each literal: its case forms, and the word as typed when its case is mixed. */
export function formsFor(
  terms: QueryTerm[],
  literals: string[],
  formsOf: (word: string) => Buffer[],
): Buffer[][] {
  const typed = new Map<string, string>();
  const visit = (t: QueryTerm) => {
    if (t.typed && !typed.has(t.token)) typed.set(t.token, t.typed);
    for (const p of t.parts) visit(p);
  };
  for (const t of terms) visit(t);
  return literals.map((l) => {
    const forms = formsOf(l);
    const as = typed.get(l);
    return as === undefined
      ? forms
      : [...forms, ...formsOf(as).filter((f) => !forms.some((g) => g.equals(f)))];
  });
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

export const nearEligible = (word: string) => word.length >= MIN_FUZZY && /^[a-z]+$/.test(word);
