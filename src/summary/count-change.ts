/**
 * Count and verdict lines whose counts changed since the previous run of the command: `Found 185
 * errors in 7 files.` where the last run said 186, `2 failing` where it said 7. Such a line differs
 * from a line of the last run only in numbers, so the comparison by form pairs it with that line
 * as line-number drift; but a count that moved is what a fix-and-rerun loop wants to see. A run
 * keeps its count lines' texts hashed, with durations and clock times masked (`(528ms)`, `in
 * 4.2s`, `12:03:44` change on every run and say nothing), and a count line is changed when its
 * hash is not among the previous run's.
 */
import { fnv1a } from './hash.js';

/** How many count lines a run keeps; a previous run that kept this many may have dropped some. */
const COUNTS_MAX = 256;

const CLOCK =
  /\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?Z?|\b\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d+)?\b/g;
const DURATION = /\d+(?:[.,]\d+)?\s?(?:ns|[uµ]s|ms|secs?|seconds?|s|mins?|minutes?|m|h|hours?)(?![a-z])/gi;

/** The hash of a count line with its durations and clock times masked. */
function countKey(text: string): number {
  return fnv1a(text.replace(CLOCK, '\u0000').replace(DURATION, '\u0001'));
}

export class CountLines {
  private readonly seen = new Set<number>();
  private readonly before: ReadonlySet<number> | undefined;

  /** `previous`: the last run's keys; undefined (or full) when it is unknown which it had. */
  constructor(previous: readonly number[] | undefined) {
    this.before = previous && previous.length < COUNTS_MAX ? new Set(previous) : undefined;
  }

  /** Nothing more to remember and nothing to compare with: a count line needs no work. */
  get idle(): boolean {
    return this.before === undefined && this.seen.size >= COUNTS_MAX;
  }

  /** Remembers a count line; whether its counts changed since the previous run (false when unknown). */
  changed(text: string): boolean {
    const key = countKey(text);
    if (this.seen.size < COUNTS_MAX) this.seen.add(key);
    return this.before !== undefined && !this.before.has(key);
  }

  /** This run's keys, in hash order (the same lines give the same list). */
  entries(): number[] {
    return [...this.seen].sort((a, b) => a - b);
  }
}
