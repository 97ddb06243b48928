/**
 * The salient lines a run keeps the text of, so that the next run of the same command can name
 * the ones that are gone (what a fix-and-rebuild loop fixed). Bounded and deterministic: the
 * TEXTS_MAX best forms by severity, the earliest among equals, each cut to TEXT_MAX characters.
 */

import { cleanLine } from './clean.js';
import type { Compared } from './collected.js';
import type { Fingerprint } from './fingerprint.js';
import { fnv1a, hashLine } from './hash.js';

/** How many salient lines' text a fingerprint keeps, and how long each may be. */
export const TEXTS_MAX = 20;
const TEXT_MAX = 200;
/** How many gone lines a comparison names. */
const GONE_NAMED = 3;
/** How many gone forms without a kept text a comparison looks up in the previous output. */
const GONE_ASKED = 12;
/** A gone line longer than this is not looked up (its text is cut to TEXT_MAX anyway). */
const LOOKUP_MAX = 4096;

type Has = Pick<ReadonlySet<number>, 'has'>;

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
export function goneTexts(previous: readonly [number, string][] | undefined, now: Has, loose: Has): string[] {
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

/**
 * The previous run's gone forms that it kept no text of (it keeps the TEXTS_MAX best): their
 * first lines there and their hashes, the first GONE_ASKED in line order. A fix among hundreds of
 * alike errors is one of these.
 */
export function unnamedGone(previous: Fingerprint | undefined, now: Has): [number, number][] {
  const lines = previous?.salientLines;
  if (!previous || !lines) return [];
  const kept = new Set((previous.texts ?? []).map(([h]) => h));
  const out: [number, number][] = [];
  previous.salient.forEach((h, i) => {
    if (!now.has(h) && !kept.has(h)) out.push([lines[i] as number, h]);
  });
  return out.sort((a, b) => a[0] - b[0]).slice(0, GONE_ASKED);
}

/**
 * Names more gone lines, up to GONE_NAMED, from the previous output itself: `linesAt` gives the
 * bytes of the asked lines (those it can read, up to a length). A line is taken only when its number-masked
 * hash is the form's (the file is the one the fingerprint was made from) and it is not, but for
 * a duration, among this run's salient lines.
 */
export function nameFromPrevious(
  c: Compared,
  linesAt: (lines: number[], max: number) => Map<number, Buffer>,
): void {
  if (c.goneTexts.length >= GONE_NAMED || c.unnamed.length === 0) return;
  const found = linesAt(
    c.unnamed.map(([line]) => line),
    LOOKUP_MAX,
  );
  for (const [line, hash] of c.unnamed) {
    if (c.goneTexts.length >= GONE_NAMED) break;
    const bytes = found.get(line);
    if (!bytes || hashLine(bytes, 0, bytes.length).digits !== hash) continue;
    const text = cleanLine(bytes.toString('utf8'));
    if (!c.loose.has(looseKey(text))) c.goneTexts.push(keptText(text));
  }
}
