/**
 * The salient lines a run keeps the text of, so that the next run of the same command can name
 * the ones that are gone (what a fix-and-rebuild loop fixed). Bounded and deterministic: the
 * TEXTS_MAX best forms by severity, the earliest among equals, each cut to TEXT_MAX characters.
 */

import { fnv1a } from './hash.js';

/** How many salient lines' text a fingerprint keeps, and how long each may be. */
export const TEXTS_MAX = 20;
const TEXT_MAX = 200;
/** How many gone lines a comparison names. */
const GONE_NAMED = 3;

interface Kept {
  hash: number;
  score: number;
  line: number;
  text: string;
}

/** Cuts a kept text to TEXT_MAX characters, not splitting a surrogate pair. */
export function keptText(text: string): string {
  if (text.length <= TEXT_MAX) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(TEXT_MAX - 2)) ? TEXT_MAX - 2 : TEXT_MAX - 1;
  return `${text.slice(0, end)}…`;
}

/** The best salient lines seen, by number-masked form: the first line of each form. */
export class SalientTexts {
  private readonly kept: Kept[] = [];

  /** Whether a form of this score would be kept (so that its text is worth decoding). */
  wants(score: number): boolean {
    return this.kept.length < TEXTS_MAX || score > (this.kept[this.kept.length - 1] as Kept).score;
  }

  /** A salient form seen for the first time, at `line` (lines come in order). */
  add(hash: number, score: number, line: number, text: string): void {
    if (!this.wants(score)) return;
    const k: Kept = { hash, score, line, text: keptText(text) };
    // Best score first; among equals the earlier line, which is the one already there.
    let i = this.kept.length;
    while (i > 0 && (this.kept[i - 1] as Kept).score < score) i--;
    this.kept.splice(i, 0, k);
    if (this.kept.length > TEXTS_MAX) this.kept.pop();
  }

  entries(): [number, string][] {
    return this.kept.map((k) => [k.hash, k.text]);
  }
}

/** A duration at the end of a line, in parentheses: `(16.874s)`, `(25 ms)`. */
const DURATION = /\s*\(\s*[\d.,:]+\s*(?:ms|s|sec|m|min)?\s*\)\s*$/;

/**
 * A looser form of a line than its number-masked hash: without a duration at its end, so that
 * `FAIL x.test.js (16.874s)` and `FAIL x.test.js` (a run that was faster) are the same line.
 */
export function looseKey(text: string): number {
  return fnv1a(text.replace(DURATION, '').replace(/\d+/g, '#').trimEnd());
}

/**
 * The kept texts of the previous run whose form is not among this run's salient lines (`now`,
 * number-masked hashes), nor, but for a duration, among them (`loose`, see looseKey).
 */
export function goneTexts(
  previous: readonly [number, string][] | undefined,
  now: Set<number>,
  loose: Set<number>,
): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  for (const [hash, text] of previous ?? []) {
    if (out.length >= GONE_NAMED) break;
    if (now.has(hash) || seen.has(hash) || loose.has(looseKey(text))) continue;
    seen.add(hash);
    out.push(text);
  }
  return out;
}
