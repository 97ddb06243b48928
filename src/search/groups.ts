/**
 * Query words as the agent typed them. A query word is one group of the words scanned for: the
 * word whole (`tail-ratio`, `4.1.12`) when it is found anywhere; else its parts. The parts of a
 * word written without a path separator (`tail-ratio` → `tail`, `ratio`; `withoutBase` →
 * `without`, `base`) count only together, on one line of a hit: `tail` in one line and `ratio`
 * in the next are not `tail-ratio`. The segments of a path (`cors/index.ts` → `cors`,
 * `index.ts`) are groups of their own, as a listing prints a directory and its files apart.
 * A hit's "k of n words" counts groups; a group matched by its parts is said so.
 */
import { cleanLine } from '../summary/clean.js';
import type { Piece } from './lines.js';

export interface Group {
  /** The query word as typed (lowercase). */
  label: string;
  /** Indexes of the words searched (see search's `words`) that make it up. */
  words: number[];
  /** True when the word itself is found nowhere and its parts stand in for it. */
  byParts: boolean;
  /** True when its parts must be on one line (a word joined by `-`, `.`, `_`, or camelCase). */
  oneLine: boolean;
  /** Worth in the coverage of a hit: 0.5 for a near spelling. */
  worth: number;
}

/** The group mask (bit g: every word of group g is in `mask`) of a mask of words. */
export function groupMask(groups: readonly Group[], mask: number): number {
  let out = 0;
  groups.forEach((g, i) => {
    if (g.words.every((w) => mask & (1 << w))) out |= 1 << i;
  });
  return out;
}

/**
 * The groups a window holds: as groupMask, and for a group whose parts must share a line, only
 * when one line of `pieces` holds them all (as substrings, as the scan found them).
 */
export function windowGroups(
  groups: readonly Group[],
  labels: readonly string[],
  mask: number,
  pieces: readonly Piece[],
): number {
  let out = groupMask(groups, mask);
  groups.forEach((g, i) => {
    if (!(out & (1 << i)) || !g.oneLine || g.words.length < 2) return;
    const parts = g.words.map((w) => labels[w]!);
    const together = pieces.some((p) => {
      const lower = cleanLine(p.text).toLowerCase();
      return parts.every((part) => lower.includes(part));
    });
    if (!together) out &= ~(1 << i);
  });
  return out;
}

/** Score factor of a window with a line that holds the query words in order, side by side. */
export const PHRASE_BOOST = 1.5;

/**
 * A test for the query words in the order typed, side by side (one to three characters that are
 * not letters or digits between them: `vitest@4.1.12`, `"4.1.12": "`, `tail ratio`); undefined
 * for a query of one word.
 */
export function phraseOf(tokens: readonly string[]): ((line: string) => boolean) | undefined {
  if (tokens.length < 2) return undefined;
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(tokens.map(esc).join('[^\\p{L}\\p{N}]{1,3}'), 'u');
  // The regex only where the line holds every word: compiled on first use (its Unicode classes
  // cost 3-5 ms in a new process), it is often never needed.
  return (line) => {
    const lower = cleanLine(line).toLowerCase();
    return tokens.every((t) => lower.includes(t)) && re.test(lower);
  };
}
