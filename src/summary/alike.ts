/**
 * Which of many alike failures is shown first. Members of one template (the same error twelve
 * times, one per request) differ in worth by hairs: a line a little nearer the end, a block a
 * few bytes shorter. The first of a cascade is the one to fix, and its block says as much as
 * any other's: of salient members worth about as much, the earlier comes first. Among hundreds
 * of alike warnings the member whose variable parts are rare stays the better exemplar.
 */

/** A unit waiting in its template's queue (see spend.ts). */
export interface Member {
  score: number;
  line: number;
  main: string;
  /** Whether its main line is salient (an error, a failure, a warning). */
  salient?: boolean;
}

/** Worth a member gives up per character against the others: the shorter says as much for less. */
const MEMBER_COST = 1000;
/** Worth the last salient member gives up against the first, by line order. */
const ORDER_COST = 0.3;
/** Alike failures are a few things to fix: more members than this are one kind of noise. */
const FEW = 20;

/**
 * Sorts one template's queue best first: by worth, less a little per character, and, for a
 * salient member of a template of FEW lines or less, less up to ORDER_COST by its place
 * between the first and the last. A member clearly worth more still comes first.
 */
export function rankMembers<T extends Member>(list: T[]): void {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const lines = new Set<number>();
  for (const u of list)
    if (u.salient) {
      first = Math.min(first, u.line);
      last = Math.max(last, u.line);
      lines.add(u.line);
    }
  const few = lines.size <= FEW && last > first;
  const order = (u: T) => (few && u.salient ? (ORDER_COST * (u.line - first)) / (last - first) : 0);
  const rank = (u: T) => u.score - u.main.length / MEMBER_COST - order(u);
  list.sort((x, y) => rank(y) - rank(x) || x.line - y.line);
}
