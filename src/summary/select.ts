/**
 * Chooses what the agent sees, with one budget. Every held line (the head and tail windows) and
 * every salient or new line of the middle belongs to a template; it is worth the surprisal of its
 * template, its severity (little inside a huge template), its location, its position and whether
 * it is new since the last run. The budget is spent greedily with diminishing returns per
 * template: one exemplar, with how many lines are like it, before any second member. A chosen
 * salient line brings its block and its parent header.
 */
import type { Shield } from '../shield.js';
import {
  assemble,
  type Entry,
  entryCost,
  likeThis,
  MARKER_COST,
  repeatMarker,
  similarMarker,
  size,
  type Unit,
} from './assemble.js';
import { blockOf, parentOf } from './blocks.js';
import type { Candidate, Collected, NumberedLine } from './collected.js';
import { cutLine, knownLines } from './lines.js';
import { inert, type Role } from './render.js';
import { shape, template } from './salience.js';
import {
  damp,
  isPassLine,
  locationWorth,
  NEW_BONUS,
  position,
  severity,
  surprisal,
  verdictLine,
} from './worth.js';

export interface SelectOptions {
  tailRatio: number;
  success: boolean;
}

/** A held line with what it is worth on its own. */
interface Held {
  line: number;
  text: string;
  key: string;
  sev: number;
  worth: number;
  isNew: boolean;
}

/** How many lines share a template, and the first and last of them. */
interface Span {
  count: number;
  first: number;
  last: number;
}

/** A unit as it waits to be chosen: its template and a suffix saying how many are like it. */
interface Pending extends Unit {
  /** The main line's text (a line identical to a chosen one of its template says nothing). */
  main: string;
  /** Worth less per member already shown when false; errors at distinct locations keep more. */
  located: boolean;
  /** The `[×N like this…]` note on the main line: said once per template. */
  note?: string;
}

/** A line's template: numbers, hex, paths and quoted names masked. */
const keyOf = (text: string) => template(text);

function spans(held: Map<number, Held>, candidates: Candidate[]): Map<string, Span> {
  const out = new Map<string, Span>();
  for (const h of held.values()) {
    const s = out.get(h.key);
    if (s) {
      s.count++;
      s.last = Math.max(s.last, h.line);
    } else out.set(h.key, { count: 1, first: h.line, last: h.line });
  }
  // The collector groups by a finer key (quoted names kept): its groups add up.
  const groups = new Map<string, Span>();
  for (const c of candidates) {
    const key = keyOf(c.text);
    const s = groups.get(key);
    if (!s) groups.set(key, { count: c.count, first: c.line, last: c.lastLine });
    else {
      s.count += c.count;
      s.first = Math.min(s.first, c.line);
      s.last = Math.max(s.last, c.lastLine);
    }
  }
  for (const [key, g] of groups) {
    const s = out.get(key);
    if (!s) out.set(key, g);
    else {
      s.count = Math.max(s.count, g.count);
      s.first = Math.min(s.first, g.first);
      s.last = Math.max(s.last, g.last);
    }
  }
  return out;
}

function holdLines(c: Collected, shield: Shield, cap: number, opts: SelectOptions): Map<number, Held> {
  const known = knownLines(c, shield);
  const byLine = new Map<number, Candidate>();
  for (const cand of c.candidates) byLine.set(cand.line, cand);
  const held = new Map<number, Held>();
  for (const n of [...known.keys()].sort((a, b) => a - b)) {
    const text = known.get(n)?.cut(cap) ?? '';
    const cand = byLine.get(n);
    const key = keyOf(text);
    const isNew = (c.newLines.has(n) || cand?.isNew === true) && !isPassLine(text);
    held.set(n, { line: n, text, key, sev: severity(text, opts.success), worth: 0, isNew });
  }
  return held;
}

/** Surprisal by the fine template and by the line's first word (test names vary, marks do not). */
function scoreHeld(held: Map<number, Held>, sp: Map<string, Span>, total: number, opts: SelectOptions) {
  const coarse = new Map<string, number>();
  for (const h of held.values()) coarse.set(shape(h.text, 1), (coarse.get(shape(h.text, 1)) ?? 0) + 1);
  const window = held.size;
  const fine = new Map<string, number>();
  for (const h of held.values())
    fine.set(template(h.text, true), (fine.get(template(h.text, true)) ?? 0) + 1);
  for (const h of held.values()) {
    const count = sp.get(h.key)?.count ?? 1;
    const rare = memberRarity(count, fine.get(template(h.text, true)) ?? 1);
    const info = 0.6 * surprisal(count, total) + 0.4 * surprisal(coarse.get(shape(h.text, 1)) ?? 1, window);
    const loc = locationWorth(h.text) * (h.sev > 0 ? 1 : 0.5);
    h.worth =
      h.sev * damp(count) + info + loc + (h.sev > 0 ? rare : 0) + position(h.line, total, opts.tailRatio);
  }
}

/**
 * Within a template, a member whose variable parts are rare (`'number'` where 27 others say
 * `'string'`) is the better exemplar.
 */
function memberRarity(count: number, fineCount: number): number {
  return count <= 1 ? 0 : Math.min(1.5, Math.log2(count / Math.max(1, fineCount)) / 2);
}

const entry = (line: number, text: string, role: Role, isNew = false): Entry => ({
  line,
  text: inert(text),
  role,
  ...(isNew ? { isNew } : {}),
});

/** The units of the held lines: runs of identical lines, runs of alike plain lines, single lines. */
function heldUnits(held: Map<number, Held>, sp: Map<string, Span>, total: number, opts: SelectOptions) {
  const units: Pending[] = [];
  const numbers = [...held.keys()];
  const at = (k: number) => held.get(numbers[k] as number) as Held;
  const textAt = (n: number) => held.get(n)?.text;
  const quiet = (h: Held) => {
    const pos = position(h.line, total, opts.tailRatio);
    return h.sev <= 0 && !h.isNew && pos <= 1 && h.worth - pos < 1.5;
  };
  for (let i = 0; i < numbers.length; i++) {
    const h = at(i);
    const next = (j: number) => j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1;
    let j = i;
    while (!h.isNew && next(j) && at(j + 1).text === h.text && !at(j + 1).isNew) j++;
    const role: Role = h.sev > 0 ? 'salient' : 'output';
    if (j - i >= 2) {
      units.push(pending(h, [entry(h.line, h.text, role), repeatOf(h.line, j - i)], h.worth, false));
      i = j;
      continue;
    }
    j = i;
    if (quiet(h) && h.text.trim() !== '')
      while (next(j) && quiet(at(j + 1)) && shape(at(j + 1).text) === shape(h.text)) j++;
    if (j - i >= 3) {
      const last = at(j);
      const from = h.line + 1;
      const marker: Entry = {
        line: last.line - 1,
        from,
        text: similarMarker(j - i - 1, from, last.line - 1),
        role: 'meta',
      };
      units.push(
        pending(
          h,
          [entry(h.line, h.text, 'output'), marker, entry(last.line, last.text, 'output')],
          Math.max(h.worth, last.worth),
          false,
        ),
      );
      i = j;
      continue;
    }
    if (h.text.trim() === '' && !h.isNew && position(h.line, total, opts.tailRatio) <= 1) continue;
    units.push(...singleHeld(h, sp, textAt, held));
  }
  return units;
}

const repeatOf = (line: number, n: number): Entry => ({
  line: line + n,
  from: line + 1,
  text: repeatMarker(n),
  role: 'meta',
});

function pending(h: Held, entries: Entry[], worth: number, located: boolean): Pending {
  const bonus = h.isNew ? NEW_BONUS : 0;
  return { entries, score: worth + bonus, line: h.line, key: h.key, bonus, main: h.text, located };
}

/** One held line, with its block and parent header when it is salient. */
function singleHeld(
  h: Held,
  sp: Map<string, Span>,
  textAt: (n: number) => string | undefined,
  held: Map<number, Held>,
): Pending[] {
  const role: Role = h.isNew ? 'new' : h.sev > 0 ? 'salient' : 'output';
  const main = entry(h.line, h.text, role, h.isNew);
  const span = sp.get(h.key);
  const note =
    h.sev > 0 && span && span.count >= 3 ? likeThis(span.count, span.first, span.last, h.line) : '';
  main.text += note;
  const entries: Entry[] = [main];
  if (h.sev >= 6) {
    const parent = parentOf(textAt, h.line);
    if (parent !== undefined) entries.unshift(entry(parent, textAt(parent) ?? '', 'salient'));
    const isHeader = (t: string) => severity(t, false) >= 10;
    for (const k of blockOf(textAt, h.line, isHeader)) {
      const b = held.get(k) as Held;
      entries.push(entry(k, b.text, b.isNew ? 'new' : 'salient', b.isNew));
    }
  }
  const located = h.sev >= 10 && locationWorth(h.text) > 0;
  const noted = (u: Pending): Pending => (note ? { ...u, note } : u);
  if (entries.length === 1) return [noted(pending(h, entries, h.worth, located))];
  // The line with its block, and, when that does not fit, the line alone.
  const length = entries.reduce((n, e) => n + entryCost(e), 0);
  return [
    noted(pending(h, entries, h.worth - length / 400, located)),
    noted(pending(h, [main], h.worth - 0.5, located)),
  ];
}

/** The salient and new lines of the middle (not held), with their context. */
function middleUnits(
  c: Collected,
  held: Map<number, Held>,
  sp: Map<string, Span>,
  shield: Shield,
  cap: number,
  opts: SelectOptions,
) {
  const units: Pending[] = [];
  for (const cand of c.candidates) {
    if (held.has(cand.line)) continue;
    const line = (l: NumberedLine, role: Role, isNew = false) =>
      entry(l.line, cutLine(shield(l.line, l.text), cap), role, isNew);
    // A passing test is never news.
    const isNew = cand.isNew && !isPassLine(cand.text);
    if (cand.isNew && !isNew && cand.score <= 0) continue;
    const main = line(cand, isNew ? 'new' : 'salient', isNew);
    const span = sp.get(keyOf(cand.text));
    const count = Math.max(cand.count, span?.count ?? 1);
    const note =
      count > 1 && !isNew
        ? likeThis(
            count,
            Math.min(cand.line, span?.first ?? cand.line),
            Math.max(cand.lastLine, span?.last ?? 0),
            cand.line,
          )
        : '';
    main.text += note;
    const entries: Entry[] = [];
    if (cand.owner) entries.push(line(cand.owner, 'salient'));
    entries.push(main);
    for (const a of cand.attached) entries.push(line(a, 'salient'));
    const scored = { kind: cand.kind, score: cand.score, ...(cand.weak ? { weak: true } : {}) };
    const sev = cand.score > 0 ? severity(cand.text, opts.success, scored) : 0;
    const loc = Math.max(locationWorth(cand.text), ...cand.attached.map((a) => locationWorth(a.text)));
    const worth =
      (sev > 0 ? memberRarity(count, cand.count) : 0) +
      sev * damp(count) +
      0.8 * surprisal(count, c.lines) +
      (sev > 0 ? loc : 0) +
      position(cand.line, c.lines, opts.tailRatio);
    const length = entries.reduce((n, e) => n + entryCost(e), 0);
    const h: Held = {
      line: cand.line,
      text: cand.text,
      key: keyOf(cand.text),
      sev,
      worth,
      isNew,
    };
    const unit = pending(h, entries, worth - length / 400, sev >= 10 && loc > 0);
    units.push(note ? { ...unit, note } : unit);
  }
  return units;
}

/** What a unit is worth once `taken` members of its template are shown. */
function effective(u: Pending, taken: number): number {
  if (taken === 0) return u.score;
  const base = u.score - u.bonus;
  const kept = base < 0 ? base - taken : base * (u.located ? 0.5 : 0.3) ** taken;
  return kept + u.bonus;
}

/**
 * Spends the room greedily: the unit worth most given what is already chosen, until nothing
 * more fits. Markers are estimated while choosing, then the exact text is made to fit.
 */
function spend(units: Pending[], room: number, total: number): Entry[] {
  const chosen: Unit[] = [];
  const shown = new Set<number>();
  const taken = new Map<string, number>();
  const texts = new Map<string, Set<string>>();
  const heap = new Heap(queues(units));
  let used = 0;
  let least = 0;
  let misses = 0;
  for (let top = heap.pop(); top && misses < MAX_MISSES; top = heap.pop()) {
    const q = top.q;
    const unit = q.units[q.next] as Pending;
    const k = taken.get(unit.key) ?? 0;
    // Worth only falls as members of a template are shown: a stale top is brought up to date.
    if (top.k !== k) {
      heap.push({ q, s: effective(unit, k), k });
      continue;
    }
    q.next++;
    const following = q.units[q.next];
    const requeue = () => {
      if (following)
        heap.push({ q, s: effective(following, taken.get(unit.key) ?? 0), k: taken.get(unit.key) ?? 0 });
    };
    const fresh = unit.entries.filter((e) => !shown.has(e.line));
    const first = fresh[0];
    // A marker for lines whose first is not shown would describe an omitted line.
    const orphan = first?.role === 'meta' && !shown.has((first.from ?? first.line) - 1);
    if (!first || orphan || texts.get(unit.key)?.has(unit.main)) {
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
    const need = entries.reduce((n, e) => n + entryCost(e), 0) + (adjacent ? 0 : MARKER_COST);
    // The text alone, without numbers and markers, is a bound below what it costs.
    const bare = size(entries);
    const near = used + need > room - 2 * MARKER_COST;
    if (near && (least + bare > room || size(assemble([...chosen, candidate], total)) > room)) {
      misses++;
      requeue();
      continue;
    }
    chosen.push(candidate);
    for (const e of entries) for (let l = e.from ?? e.line; l <= e.line; l++) shown.add(l);
    taken.set(unit.key, k + 1);
    if (!texts.has(unit.key)) texts.set(unit.key, new Set());
    texts.get(unit.key)?.add(unit.main);
    used += need;
    least += bare;
    requeue();
  }
  return fitting(chosen, room, total);
}

/**
 * The units in queues of one template and one way of losing worth (so that, within a queue, the
 * order never changes as members are shown), each sorted best first, the earlier line first
 * among equals.
 */
function queues(units: Pending[]): Slot[] {
  const byGroup = new Map<string, Pending[]>();
  for (const u of units) {
    const g = `${u.located ? 1 : 0}${u.bonus > 0 ? 1 : 0}${u.key}`;
    const list = byGroup.get(g);
    if (list) list.push(u);
    else byGroup.set(g, [u]);
  }
  const slots: Slot[] = [];
  for (const list of byGroup.values()) {
    list.sort((x, y) => y.score - x.score || x.line - y.line);
    slots.push({ q: { units: list, next: 0 }, s: (list[0] as Pending).score, k: 0 });
  }
  return slots;
}

/** Units tried that did not fit, after which the rest are taken not to fit either. */
const MAX_MISSES = 100;

interface Queue {
  units: Pending[];
  next: number;
}

interface Slot {
  q: Queue;
  /** The worth of the queue's next unit when last brought up to date, with `k` members shown. */
  s: number;
  k: number;
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
    return (x.q.units[x.q.next] as Pending).line < (y.q.units[y.q.next] as Pending).line;
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

export function select(
  c: Collected,
  room: number,
  cap: number,
  shield: Shield,
  opts: SelectOptions,
): Entry[] {
  const held = holdLines(c, shield, cap, opts);
  const sp = spans(held, c.candidates);
  scoreHeld(held, sp, c.lines, opts);
  const units = [...heldUnits(held, sp, c.lines, opts), ...middleUnits(c, held, sp, shield, cap, opts)];
  reserve(units, verdictLine(held.values(), c.lines), RESERVED);
  // The first and the last line that say something: where the output starts and ends, so that a
  // log of salient-looking messages (commit messages that say "failed") never hides both ends.
  const said = [...held.values()].filter((h) => h.text.trim() !== '').map((h) => h.line);
  // (`--tail-ratio 1` asks for the end alone, 0 for the start alone.)
  if (said.length > 0 && opts.tailRatio < 1) reserve(units, Math.min(...said), RESERVED / 2);
  if (said.length > 0 && opts.tailRatio > 0) reserve(units, Math.max(...said), RESERVED / 2);
  return spend(units, room, c.lines);
}

/** Worth above any other: the verdict line is chosen first, whatever the news, then the ends. */
const RESERVED = 1e6;

/** The smallest unit of `line` is chosen before any worth less than `worth`. */
function reserve(units: Pending[], line: number | undefined, worth: number): void {
  if (line === undefined) return;
  let best: Pending | undefined;
  for (const u of units) if (u.line === line && (!best || u.entries.length < best.entries.length)) best = u;
  if (best) best.score += worth;
}
