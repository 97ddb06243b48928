/**
 * The first of alike errors stands for them. Members of one template of errors (the same error
 * once per request, per batch, per retry) differ in worth mostly by where they are: the last sits
 * near the end, where position is worth most, and would be the one shown with `[+N similar,
 * first F]`. But the first of a cascade is the one to fix, and what came after it is its
 * consequence: the first member is worth what the best member is, so that it is the exemplar
 * (a later one still follows when it is worth its room). Among more than a few members (hundreds
 * of alike warnings) the member whose variable parts are rare stays the better exemplar.
 */
import { scoreLine, template } from './salience.js';
import type { Pending } from './spend.js';

/**
 * The least score of an error (see scoreLine): warnings are not a cascade, and the last of
 * alike warnings stands for them as well as the first.
 */
const ERROR = 10;

/** Alike errors are a few things to fix: more members than this are one kind of noise. */
const FEW = 20;

/**
 * Raises the first member of each template of errors of FEW lines or less to the worth of the best
 * member that is alike it (the same text but for numbers, paths and hex).
 */
export function liftFirsts(units: Pending[]): void {
  const groups = new Map<string, Pending[]>();
  for (const u of units) {
    if (!u.salient || scoreLine(u.main).score < ERROR) continue;
    const list = groups.get(u.key);
    if (list) list.push(u);
    else groups.set(u.key, [u]);
  }
  for (const list of groups.values()) {
    let first = Number.POSITIVE_INFINITY;
    const lines = new Set<number>();
    for (const u of list) {
      first = Math.min(first, u.line);
      lines.add(u.line);
    }
    if (lines.size < 2 || lines.size > FEW) continue;
    // Only a member that says what the first says but for numbers and names lends it its worth:
    // the miner may take another failure (`x.py:294: AssertionError` beside `y.py:644:
    // TypeError`) for a member.
    const firsts = list.filter((u) => u.line === first);
    const fine = template((firsts[0] as Pending).main, true);
    let best = Number.NEGATIVE_INFINITY;
    for (const u of list) if (template(u.main, true) === fine) best = Math.max(best, u.score - u.bonus);
    let own = Number.NEGATIVE_INFINITY;
    for (const u of firsts) own = Math.max(own, u.score - u.bonus);
    const lift = best - own;
    if (lift > 0) for (const u of firsts) u.score += lift;
  }
}
