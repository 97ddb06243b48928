/**
 * What a run remembers of its lines for the next run of the same command (its fingerprint), and
 * how its lines compare with the previous run's.
 */

import { cleanLine } from './clean.js';
import type { Compared } from './collected.js';
import { CountLines } from './count-change.js';
import { Comparison, DIGITS_K, EXACT_K, type Fingerprint, SALIENT_MAX } from './fingerprint.js';
import { goneTexts, SalientTexts, unnamedGone } from './gone.js';
import { hashLine } from './hash.js';
import { hasPercent, isMovedShare, leadsWithDigit, rowOf } from './moved.js';
import { Sketch } from './sketch.js';

export class RunMemory {
  private readonly compare: Comparison | undefined;
  private readonly exactSketch = new Sketch(EXACT_K);
  private readonly digitsSketch = new Sketch(DIGITS_K);
  /** The salient forms by number-masked hash, with the number of each one's first line. */
  private readonly salient = new Map<number, number>();
  private readonly salientTexts = new SalientTexts();
  /** Loose keys of the salient forms (as many as `salient` holds). */
  private readonly looseSalient = new Set<number>();
  private readonly counts: CountLines;
  /** The rows of tallies (see moved.ts), for a count in one that moved. */
  private readonly rows: CountLines;
  /** Count lines whose counts changed since the previous run: new, whatever their form pairs with. */
  private readonly changed = new Set<number>();
  private changedPaired = 0;
  /** New lines that are empty: one more empty line is no news, so these are not counted. */
  private blankNew = 0;
  /** What `see` answers (one object, reused). */
  private readonly seen = { digits: 0, isNew: false };

  constructor(private readonly previous: Fingerprint | undefined) {
    this.compare = previous ? new Comparison(previous) : undefined;
    this.counts = new CountLines(previous?.counts);
    this.rows = new CountLines(previous?.rows);
  }

  /**
   * The text of a line found new (by `see` or `resolve`); undefined when it is empty: one more
   * empty line is no news, and is not counted as new.
   */
  newText(bytes: Buffer): string | undefined {
    const text = cleanLine(bytes.toString('utf8'));
    if (text.trim() !== '') return text;
    this.blankNew++;
    return undefined;
  }

  /** Remembers a count line; whether it is new because a count in it changed (see count-change.ts). */
  countLine(bytes: Buffer, line: number, isNew: boolean): boolean {
    if (this.counts.idle) return false;
    if (!this.counts.changed(cleanLine(bytes.toString('utf8'))) || isNew) return false;
    this.changed.add(line);
    return true;
  }

  /**
   * Hashes the line `work[s..e)` numbered `line`: its number-masked hash, and whether it is new
   * since the previous run (a line known only by its form waits for `resolve`). The answer is one
   * object, reused by the next call (see hashLine).
   */
  see(work: Buffer, s: number, e: number, line: number, plain = false): { digits: number; isNew: boolean } {
    const { exact, digits } = hashLine(work, s, e);
    const seen = this.seen;
    seen.digits = digits;
    seen.isNew = false;
    this.exactSketch.add(exact);
    this.digitsSketch.add(digits);
    // A plain line that is a tally's row is remembered, to tell a count in it that moved.
    const row = plain && !this.rows.idle && leadsWithDigit(work, s, e) && this.rowMoved(work, s, e);
    const v = this.compare?.check(exact, digits);
    if (v === 'maybe') {
      // A share or a count that moved is news, not drift (see moved.ts). A share is read so only
      // where the previous run would have kept this text's hash: else the line may have been there.
      const compare = this.compare as Comparison;
      const share =
        compare.covers(exact) &&
        hasPercent(work, s, e) &&
        isMovedShare(cleanLine(work.toString('utf8', s, e)));
      if (row || share) {
        compare.fresh++;
        seen.isNew = true;
        return seen;
      }
      this.compare?.defer(line, digits, work.subarray(s, e));
    }
    seen.isNew = v === 'new';
    return seen;
  }

  /** Remembers a tally's row; whether its count moved since the previous run (see moved.ts). */
  private rowMoved(work: Buffer, s: number, e: number): boolean {
    const row = rowOf(cleanLine(work.toString('utf8', s, e)));
    return row !== undefined && this.rows.changed(row);
  }

  /** The deferred lines found new at the end. */
  resolve(): ReturnType<Comparison['resolve']> {
    const all = this.compare?.resolve() ?? [];
    const rest = all.filter((d) => !this.changed.has(d.line));
    // The changed lines the comparison did not count as new (it paired them).
    this.changedPaired = this.changed.size - (all.length - rest.length);
    return rest;
  }

  /**
   * Remembers a salient line, `work[s..e)`, by its number-masked hash (the first SALIENT_MAX
   * forms), with its text when it is among the best (decoded only then).
   */
  salientLine(
    digits: number,
    score: number,
    loose: number,
    line: number,
    work: Buffer,
    s: number,
    e: number,
  ): void {
    if (this.salient.size >= SALIENT_MAX || this.salient.has(digits)) return;
    this.salient.set(digits, line);
    this.looseSalient.add(loose);
    if (this.salientTexts.wants(score))
      this.salientTexts.add(digits, score, line, cleanLine(work.toString('utf8', s, e)));
  }

  /** How this run compares with the previous one, when one was given (after `resolve`). */
  compared(): Compared | undefined {
    if (!this.compare) return undefined;
    const gone = (this.previous?.salient ?? []).filter((h) => !this.salient.has(h)).length;
    const named = goneTexts(this.previous?.texts, this.salient, this.looseSalient);
    return {
      fresh: this.compare.fresh + this.changedPaired - this.blankNew,
      gone,
      goneTexts: named,
      unnamed: unnamedGone(this.previous, this.salient),
      loose: this.looseSalient,
      related: this.compare.related,
      changed: this.changed,
      drifted: this.compare.drifted,
    };
  }

  /** This run's lines, for comparing with a later run. */
  fingerprint(): Fingerprint {
    const exact = this.exactSketch.entries();
    return {
      exact: exact.map(([h]) => h),
      exactCounts: exact.filter(([, n]) => n > 1),
      exactMax: this.exactSketch.max,
      digits: this.digitsSketch.entries(),
      digitsMax: this.digitsSketch.max,
      ...salientForms(this.salient),
      texts: this.salientTexts.entries(),
      counts: this.counts.entries(),
      rows: this.rows.entries(),
    };
  }
}

/** The salient forms in hash order, with their first lines in the same order. */
function salientForms(salient: Map<number, number>): Pick<Fingerprint, 'salient' | 'salientLines'> {
  const forms = [...salient].sort((a, b) => a[0] - b[0]);
  return { salient: forms.map(([h]) => h), salientLines: forms.map(([, line]) => line) };
}
