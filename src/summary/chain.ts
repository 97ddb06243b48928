/**
 * What leads to a finding, and what a tool says under it. The chain that leads to a compiler's
 * error is the lines right above it in its paragraph that say through what it was reached
 * (`../x.hpp:1263:14:   required from ‘void add(…)’`, `In file included from ../t.cpp:6:`,
 * `In instantiation of ‘…’:`): the error says what is wrong in a library's template, the chain
 * which use of the project's own code made it so. The words are a small table; the shape
 * (unbroken lines right above the error, none of them a finding of its own) is any compiler's.
 */
import type { LineAt } from './blocks.js';

const CHAIN =
  /\b(?:required|included|instantiated|expanded|inlined|called) from\b|\bIn (?:instantiation of|substitution of|expansion of|function|member function|constructor|file included from)\b/;
/** A finding of its own: it is no step of the chain but the end of an earlier one. */
const FINDING = /\b(?:error|warning|note)\b:|\berror\[/i;
/**
 * The steps of a chain brought: the nearest to the error (`required from here`, and the step
 * above it, which names the use that made the error).
 */
const MAX_STEPS = 2;
/** How far up a chain is read. */
const SPAN = 12;

/** The nearest steps of the chain right above line `n` (in line order), or none. */
export function chainAbove(at: LineAt, n: number): number[] {
  const steps: number[] = [];
  for (let k = n - 1; k >= Math.max(1, n - SPAN) && steps.length < MAX_STEPS; k--) {
    const text = at(k);
    if (text === undefined || text.trim() === '' || FINDING.test(text) || !CHAIN.test(text)) break;
    steps.push(k);
  }
  return steps.reverse();
}

/** A compiler's note on a finding: `src/a.c:2005:36: note: did you mean to dereference…`. */
const NOTE = /^\S+?:\d+(?::\d+)?:\s*note:/;
/** A finding's place, its file and line: `src/a.c:2005` of `src/a.c:2005:36: warning: …`. */
const PLACE = /^(\S+?:\d+)(?::\d+)?:\s/;
/** Notes brought under a lesser finding, and how far under it they are read. */
const MAX_NOTES = 2;
const NOTE_SPAN = 8;

/**
 * The notes at a finding's own place (its file and line) under it (a warning's: an error's
 * block finds them, see blocks.ts), past its code frame, up to the next finding or a blank
 * line: what the tool suggests (`did you mean to dereference…`). A note elsewhere (`in
 * expansion of macro ‘cast’` at the macro's definition) points away from the finding.
 */
export function notesUnder(at: LineAt, n: number): number[] {
  const place = PLACE.exec(at(n) ?? '')?.[1];
  if (place === undefined) return [];
  const notes: number[] = [];
  for (let k = n + 1; k <= n + NOTE_SPAN && notes.length < MAX_NOTES; k++) {
    const text = at(k);
    if (text === undefined || text.trim() === '') break;
    if (NOTE.test(text) && PLACE.exec(text)?.[1] === place) notes.push(k);
    else if (PLACE.test(text)) break;
  }
  return notes;
}
