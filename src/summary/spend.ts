/**
 * Spends the summary's room on the units worth most, greedily, with diminishing returns per
 * template: once `k` members of a template are shown, the next is worth less (an error at a
 * location of its own keeps more), but never its bonus for being new since the last run.
 */
import { rankMembers } from './alike.js';
import {
  AssembledSize,
  assemble,
  cost,
  type Entry,
  entryCost,
  MARKER_COST,
  SHORT_GAP,
  size,
  type Unit,
} from './assemble.js';
import { template } from './salience.js';

/** A unit as it waits to be chosen: its template and a suffix saying how many are like it. */
export interface Pending extends Unit {
  /** The main line's text (a line identical to a chosen one of its template says nothing). */
  main: string;
  /** What is left of its worth per member of its template already shown (see decayOf). */
  decay: number;
  /** The `[×N like this…]` note on the main line: said once per template. */
  note?: string;
  /** Whether its main line is salient (see alike.ts). */
  salient?: boolean;
  /**
   * What makes it no copy of a chosen unit of the same text, when its main line alone does not
   * say it: the location on the line under it (`error[E0308]: mismatched types` twice, above
   * `--> src/de.rs:97:55` and `--> src/de.rs:528:30`).
   */
  ident?: string;
}

/** What a unit is worth once `taken` members of its template are shown. */
function effective(u: Pending, taken: number): number {
  if (taken === 0) return u.score;
  const base = u.score - u.bonus;
  const kept = base < 0 ? base - taken : base * u.decay ** taken;
  return kept + u.bonus;
}

/**
 * Spends the room greedily: the unit worth most given what is already chosen, until nothing
 * more fits. Markers are estimated while choosing, then the exact text is made to fit.
 */
export function spend(units: Pending[], room: number, total: number): Entry[] {
  const chosen: Unit[] = [];
  const sizer = new AssembledSize(total);
  const shown = new Set<number>();
  const taken = new Map<string, number>();
  const texts = new Map<string, Set<string>>();
  const shownFine = new Set<string>();
  const slots = queues(units);
  const heap = new Heap(slots);
  // The queues holding a unit of each line: when a line is shown, a unit of it waiting at the
  // head of its queue may be worth more than its slot says (see kOf), and is brought up.
  const byLine = new Map<number, Queue[]>();
  for (const { q } of slots)
    for (const u of q.units) {
      const list = byLine.get(u.line);
      if (!list) byLine.set(u.line, [q]);
      else if (list[list.length - 1] !== q) list.push(q);
    }
  let used = 0;
  let least = 0;
  let misses = 0;
  // Members of its template shown, but for its own main line: the rest of a block whose line came
  // alone first is worth what the whole block was when that line was chosen.
  const kOf = (u: Pending) => Math.max(0, (taken.get(u.key) ?? 0) - (shown.has(u.line) ? 1 : 0));
  /** Puts the queue's next unit in the heap at its worth now; its older slot says nothing more. */
  const enqueue = (q: Queue) => {
    const head = q.units[q.next];
    if (!head) return;
    q.version++;
    heap.push({ q, s: effective(head, kOf(head)), k: kOf(head), version: q.version, line: head.line });
  };
  for (let top = heap.pop(); top && top.s >= MIN_WORTH && misses < MAX_MISSES; top = heap.pop()) {
    const q = top.q;
    if (top.version !== q.version) continue;
    const unit = q.units[q.next] as Pending;
    const k = kOf(unit);
    // Worth falls as members of a template are shown: a stale top is brought up to date.
    if (top.k !== k) {
      enqueue(q);
      continue;
    }
    // (A unit whose line is shown brings the rest of its block: it is no second copy.)
    if (!shown.has(unit.line) && preferDistinct(q, shownFine)) {
      enqueue(q);
      continue;
    }
    q.next++;
    const requeue = () => enqueue(q);
    const fresh = unit.entries.filter((e) => !shown.has(e.line));
    const first = fresh[0];
    // A marker for lines whose first is not shown would describe an omitted line.
    const orphan = first?.role === 'meta' && !shown.has((first.from ?? first.line) - 1);
    // A unit whose main line is shown already brings the rest of its block (the line came alone
    // first); another line of the same text says nothing.
    const extending = shown.has(unit.line);
    const copy = !extending && texts.get(unit.key)?.has(unit.ident ?? unit.main);
    if (!first || orphan || copy || (!extending && pastPlain(unit, fresh, used, room))) {
      requeue();
      continue;
    }
    const adjacent = shown.has((first.from ?? first.line) - 1);
    const note = unit.note;
    const entries =
      k > 0 && note
        ? fresh.map((e) => (e.text.endsWith(note) ? { ...e, text: e.text.slice(0, -note.length) } : e))
        : fresh;
    const candidate: Unit = { ...unit, entries };
    // A gap between numbered lines is one short line (the two full ones are left room below).
    const need = entries.reduce((n, e) => n + entryCost(e), 0) + (adjacent ? 0 : cost(SHORT_GAP));
    // The text alone, without numbers and markers, is a bound below what it costs.
    const bare = size(entries);
    const near = used + need > room - 2 * MARKER_COST;
    if (near && (least + bare > room || sizer.with(candidate) > room)) {
      misses++;
      requeue();
      continue;
    }
    chosen.push(candidate);
    sizer.add(candidate);
    const opened: number[] = [];
    for (const e of entries)
      for (let l = e.from ?? e.line; l <= e.line; l++)
        if (!shown.has(l)) {
          shown.add(l);
          opened.push(l);
        }
    taken.set(unit.key, k + 1);
    // A block whose line is now shown keeps its own worth (see kOf): a unit of that line waiting
    // at the head of another queue is brought up, or it would wait below its worth.
    for (const l of opened)
      for (const w of byLine.get(l) ?? []) if (w !== q && w.units[w.next]?.line === l) enqueue(w);
    shownFine.add(fineOf(unit));
    if (!texts.has(unit.key)) texts.set(unit.key, new Set());
    texts.get(unit.key)?.add(unit.ident ?? unit.main);
    used += need;
    least += bare;
    requeue();
  }
  return fitting(chosen, room, total);
}

/**
 * Whether a unit is a plain one (neither salient nor new) past the room plain lines may fill
 * (see PLAIN_SHARE): only salient and new lines, and the rest of a shown block, come after it.
 */
function pastPlain(unit: Pending, fresh: Entry[], used: number, room: number): boolean {
  if (unit.salient || unit.bonus > 0) return false;
  return used + fresh.reduce((n, e) => n + entryCost(e), 0) > room * PLAIN_SHARE;
}

/** A unit's finer template: its quoted names kept (see template in salience.ts). */
const fineOf = (u: Pending) => template(u.main, true);

/**
 * When the queue's next unit repeats a finer template already shown (the fourth
 * `ERROR: … table "playlist_track" …`), a member of another finer template not far behind it
 * (the one `… table "invoice_line" …`) moves ahead of it: a distinct error before another
 * copy of one already shown. True when the queue was reordered.
 */
function preferDistinct(q: Queue, shownFine: ReadonlySet<string>): boolean {
  const head = q.units[q.next] as Pending;
  if (!shownFine.has(fineOf(head))) return false;
  const end = Math.min(q.units.length, q.next + 1 + DISTINCT_LOOKAHEAD);
  for (let j = q.next + 1; j < end; j++) {
    const u = q.units[j] as Pending;
    if (u.score < head.score * DISTINCT_WORTH) return false;
    if (shownFine.has(fineOf(u))) continue;
    q.units.splice(j, 1);
    q.units.splice(q.next, 0, u);
    return true;
  }
  return false;
}

/** How far behind, in members, and at what fraction of the worth, a distinct member is sought. */
const DISTINCT_LOOKAHEAD = 64;
const DISTINCT_WORTH = 0.7;

/**
 * The units in queues of one template and one way of losing worth (so that, within a queue, the
 * order never changes as members are shown), each sorted best first, the earlier line first
 * among equals.
 */
function queues(units: Pending[]): Slot[] {
  const byGroup = new Map<string, Pending[]>();
  for (const u of units) {
    const g = `${u.decay}|${u.bonus}|${u.key}`;
    const list = byGroup.get(g);
    if (list) list.push(u);
    else byGroup.set(g, [u]);
  }
  const slots: Slot[] = [];
  for (const list of byGroup.values()) {
    rankMembers(list);
    const head = list[0] as Pending;
    slots.push({ q: { units: list, next: 0, version: 0 }, s: head.score, k: 0, version: 0, line: head.line });
  }
  return slots;
}

/**
 * The share of the room that plain lines (neither salient nor new) may fill: past it, only salient
 * and new lines, and the rest of a block already shown, are added. An output with little to say
 * is told in fewer bytes; one with many errors still has the whole room for them. On the 307
 * needle cases, the budget 2,650 with 0.75 keeps 552 tuning and 232 held-out needles at 1.68% of
 * the bytes of the cases of 20 kB-1 MB; 2,500 filled whole keeps 543 and 229 at 1.71%.
 */
export const PLAIN_SHARE = 0.75;

/** A unit worth less than this says nothing worth its bytes: the rest of the room stays empty. */
const MIN_WORTH = 0.05;

/** Units tried that did not fit, after which the rest are taken not to fit either. */
const MAX_MISSES = 100;

interface Queue {
  units: Pending[];
  next: number;
  /** Bumped at each slot put in the heap for the queue: only the latest slot is current. */
  version: number;
}

interface Slot {
  q: Queue;
  /** The worth of the queue's next unit when last brought up to date, with `k` members shown. */
  s: number;
  k: number;
  /** The queue's version when the slot was put in (see Queue). */
  version: number;
  /** The line of the unit it was put in for (a stale slot's queue may have none left). */
  line: number;
}

/** A max-heap of queues by the worth of their next unit. */
class Heap {
  private readonly a: Slot[] = [];
  constructor(items: Slot[]) {
    for (const x of items) this.push(x);
  }
  /** Worth first; among equals, the earlier line. */
  private above(x: Slot, y: Slot): boolean {
    if (x.s !== y.s) return x.s > y.s;
    return x.line < y.line;
  }
  push(x: Slot): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(a[i] as Slot, a[p] as Slot)) break;
      [a[i], a[p]] = [a[p] as Slot, a[i] as Slot];
      i = p;
    }
  }
  pop(): Slot | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.above(a[l] as Slot, a[m] as Slot)) m = l;
        if (r < a.length && this.above(a[r] as Slot, a[m] as Slot)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as Slot, a[i] as Slot];
        i = m;
      }
    }
    return top;
  }
}

/** Gives back the least worth until the exact text fits. */
function fitting(chosen: Unit[], room: number, total: number): Entry[] {
  let entries = assemble(chosen, total);
  while (size(entries) > room && chosen.length > 0) {
    chosen.pop();
    entries = assemble(chosen, total);
  }
  return entries;
}

/** Worth above any other: the verdict line is chosen first, whatever the news, then the ends. */
export const RESERVED = 1e6;

/** The smallest unit of `line` is chosen before any worth less than `worth`. */
export function reserve(units: Pending[], line: number | undefined, worth: number): void {
  if (line === undefined) return;
  let best: Pending | undefined;
  for (const u of units) if (u.line === line && (!best || u.entries.length < best.entries.length)) best = u;
  if (best) best.score += worth;
}
