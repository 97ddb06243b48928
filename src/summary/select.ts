/**
 * Chooses what the agent sees, with one budget. Every held line (the head and tail windows) and
 * every salient or new line of the middle belongs to a template; it is worth the surprisal of its
 * template, its severity (little inside a huge template), its location, its position and whether
 * it is new since the last run. The budget is spent greedily with diminishing returns per
 * template: one exemplar, with how many lines are like it, before any second member. A chosen
 * salient line brings its block and its parent header.
 */
import type { Shield } from '../shield.js';
import { type Entry, entryCost, likeThis, repeatMarker, similarMarker } from './assemble.js';
import { blockOf, echoUnder, frameAbove, introduced, introducer, parentsOf } from './blocks.js';
import { notesUnder } from './chain.js';
import {
  CHECK_DECAY,
  CHECK_SEVERITY,
  type Checks,
  checksOf,
  checkTitle,
  evenChecks,
  markFailing,
} from './checks.js';
import { codeRarity } from './codes.js';
import type { Candidate, Collected, NumberedLine } from './collected.js';
import { liftEchoes } from './echo.js';
import { fieldRarity, isRareField, recordHeader } from './fields.js';
import { liftFirsts } from './firsts.js';
import { repeatedFrames } from './frames.js';
import { dampRuns } from './indented-runs.js';
import { kindRarity } from './kinds.js';
import { cutAround, cutLine, knownLines, type PoolLine } from './lines.js';
import { messageRarity } from './messages.js';
import { linkNamesakes } from './namesakes.js';
import { markRecord } from './new-record.js';
import { liftOutline, outlineDecay, outlineOf } from './outline.js';
import { addPlaces, stepAbove } from './place-above.js';
import { inert, type Role } from './render.js';
import { errorWordAt, indentOf, isLocation, scoreLine, shape, template } from './salience.js';
import { slotRarity } from './slots.js';
import { type KeyOf, mineKeys, type Span, spans } from './spans.js';
import { type Pending, RESERVED, reserve, spend } from './spend.js';
import { untagged } from './tags.js';
import { failedVerdict } from './verdict-failed.js';
import {
  damp,
  decayOf,
  isPassLine,
  locationWorth,
  newBonus,
  PLAIN_DECAY,
  position,
  severity,
  surprisal,
  tallyBeside,
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
  /** The bonus when new (see newBonus). */
  bonus: number;
  /** A failing check among passing ones (see checks.ts): each is a thing to fix, not one of many. */
  check?: boolean;
  /** A numbered or framed failure's title (see isFailureTitle in checks.ts): each, too, names a thing to fix. */
  title?: boolean;
}

/** The worth of a line's rule code being rare (see codes.ts). */
type CodeWorth = (text: string) => number;

function holdLines(c: Collected, known: Map<number, PoolLine>, cap: number, opts: SelectOptions) {
  const byLine = new Map<number, Candidate>();
  for (const cand of c.candidates) byLine.set(cand.line, cand);
  const held = new Map<number, Held>();
  const bonus = newBonus(c.compared?.fresh ?? 0, c.lines);
  for (const n of [...known.keys()].sort((a, b) => a - b)) {
    const text = known.get(n)?.cut(cap) ?? '';
    const cand = byLine.get(n);
    const isNew = (c.newLines.has(n) || cand?.isNew === true) && !isPassLine(text);
    const b = c.compared?.changed.has(n) ? 0 : bonus;
    held.set(n, { line: n, text, key: '', sev: severity(text, opts.success), worth: 0, isNew, bonus: b });
  }
  return held;
}

/** Surprisal by the fine template and by the line's first word (test names vary, marks do not). */
function scoreHeld(
  held: Map<number, Held>,
  sp: Map<string, Span>,
  total: number,
  opts: SelectOptions,
  code: CodeWorth,
) {
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
    // A title over passing checks (`    error handling` above `      ✔ should 404`) names a
    // group of tests: its error word is a name.
    if (h.sev > 0 && scoreLine(h.text).weak && titleOfPasses(held, h)) h.sev = 0;
    h.worth =
      sevWorth(h.sev, count, h.check === true) +
      info +
      loc +
      (h.sev > 0 ? rare : 0) +
      code(h.text) +
      position(h.line, total, opts.tailRatio);
  }
}

/** Whether the next line is a passing check, indented deeper than `h`. */
function titleOfPasses(held: Map<number, Held>, h: Held): boolean {
  const next = held.get(h.line + 1)?.text;
  return next !== undefined && indentOf(next) > indentOf(h.text) && isPassLine(next);
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
function heldUnits(
  held: Map<number, Held>,
  sp: Map<string, Span>,
  total: number,
  opts: SelectOptions,
  cap: number,
) {
  const units: Pending[] = [];
  const numbers = [...held.keys()];
  const at = (k: number) => held.get(numbers[k] as number) as Held;
  const textAt = (n: number) => held.get(n)?.text;
  // Learnt once a block asks (most outputs have no error block to read).
  let frames: ((text: string) => boolean) | undefined;
  const helper = (text: string) => {
    frames ??= repeatedFrames([...held.values()].map((h) => h.text));
    return frames(text);
  };
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
      units.push(pending(h, [entry(h.line, h.text, role), repeatOf(h.line, j - i)], h.worth, PLAIN_DECAY));
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
          PLAIN_DECAY,
        ),
      );
      i = j;
      continue;
    }
    if (h.text.trim() === '' && !h.isNew && position(h.line, total, opts.tailRatio) <= 1) continue;
    units.push(...singleHeld(h, sp, textAt, held, blockCap(cap), helper));
  }
  return units;
}

const repeatOf = (line: number, n: number): Entry => ({
  line: line + n,
  from: line + 1,
  text: repeatMarker(n),
  role: 'meta',
});

function pending(h: Held, entries: Entry[], worth: number, decay: number, ident?: string): Pending {
  const bonus = h.isNew ? h.bonus : 0;
  const salient = h.sev > 0 ? { salient: true } : {};
  return {
    entries,
    score: worth + bonus,
    line: h.line,
    key: h.key,
    bonus,
    main: h.text,
    decay,
    ident,
    ...salient,
  };
}

/** One held line, with its block and parent header when it is salient. */
function singleHeld(
  h: Held,
  sp: Map<string, Span>,
  textAt: (n: number) => string | undefined,
  held: Map<number, Held>,
  detailCap: number,
  helper: (text: string) => boolean,
): Pending[] {
  const role: Role = h.isNew ? 'new' : h.sev > 0 ? 'salient' : 'output';
  const main = entry(h.line, h.text, role, h.isNew);
  const span = sp.get(h.key);
  const note =
    h.sev > 0 && span && span.count >= 3 ? likeThis(span.count, span.first, span.last, h.line) : '';
  main.text += note;
  const entries: Entry[] = [main];
  // Blocks and parents are read after a tool's tag on its lines (see tags.ts).
  const view = untagged(textAt, h.line);
  // A parent says where: an error's always, a lesser line's when the parent names a place.
  // A field's rare value says which record by its header (see fields.ts), a salient line the
  // step it came in (see stepAbove).
  const above = isRareField(h.key)
    ? recordHeader(view, h.line)
    : h.sev > 0
      ? stepAbove(view, h.line, textAt)
      : [];
  const parents = h.sev > 0 ? headersOf(view, h.line, h.check === true) : frameAbove(view, h.line);
  // What led to an error and where it was found, said above it (see place-above.ts).
  if (h.sev >= 6) addPlaces(parents, view, textAt, h.line);
  for (const k of above) if (!parents.includes(k)) parents.push(k);
  parents.sort((a, b) => a - b);
  if (h.sev >= 6 || above.length > 0 || parents.some((p) => namesPlace(textAt(p) ?? '')))
    for (const p of parents.reverse()) entries.unshift(entry(p, textAt(p) ?? '', 'salient'));
  // An error's block runs to the next header (see nextHeader); a lesser line brings what it
  // introduces (see introduced).
  const block =
    h.sev >= 6
      ? blockOf(view, h.line, nextHeader(view(h.line) ?? h.text), helper)
      : h.sev > 0
        ? [
            ...new Set([
              ...introduced(view, h.line, textAt),
              ...notesUnder(view, h.line),
              ...echoUnder(view, h.line),
            ]),
          ]
        : isLocation(h.text)
          ? echoUnder(view, h.line)
          : [];
  for (const k of block) {
    const b = held.get(k) as Held;
    entries.push(entry(k, cutLine(b.text, detailCap), b.isNew ? 'new' : 'salient', b.isNew));
  }
  const decay = decayFor(h.sev, locationWorth(h.text) > 0, span?.distinct ?? 1, h.check || h.title);
  const noted = (u: Pending): Pending => (note ? { ...u, note } : u);
  if (entries.length === 1) return [noted(pending(h, entries, h.worth, decay))];
  // The line with its block, and, when that does not fit, the line alone. A failing check's
  // title is what names it: failing checks alike but for their titles' lengths stay in line order.
  const charged = h.check ? entries.slice(entries.indexOf(main)) : entries;
  const length = charged.reduce((n, e) => n + entryCost(e), 0);
  // A line that names no place, with the location under it: alike lines elsewhere are no copies.
  const under = block[0] === h.line + 1 && !isLocation(h.text) ? held.get(h.line + 1)?.text : undefined;
  const ident = under !== undefined && isLocation(under) ? `${h.text}\n${under}` : undefined;
  return [
    noted(pending(h, entries, h.worth - length / BLOCK_COST, decay, ident)),
    noted(pending(h, [main], h.worth - (h.check ? 3 * ALONE_COST : ALONE_COST), decay)),
  ];
}

/**
 * A header after an error: an error as severe that names a place of its own, or that starts as
 * the error does (the next failure); an error message under a failure's title is its block.
 */
function nextHeader(error: string): (text: string) => boolean {
  const first = shape(error, 1);
  return (t) => severity(t, false) >= 10 && (isLocation(t) || shape(t, 1) === first);
}

/** The parent headers of a salient line, or else, for a failing check, its title (see checks.ts). */
function headersOf(textAt: (n: number) => string | undefined, n: number, check: boolean): number[] {
  const parents = parentsOf(textAt, n);
  for (const k of introducer(textAt, n)) if (!parents.includes(k)) parents.push(k);
  const title = parents.length === 0 ? checkTitle(textAt, n, () => check) : undefined;
  return title === undefined ? parents : [title];
}

/** A severity's worth, damped in a big template; not a failing check's: each is a thing to fix. */
const sevWorth = (sev: number, count: number, check: boolean) => (check ? sev : sev * damp(count));

/** What is left of a unit's worth per alike one shown (see decayOf); a failing check or a failure's title keeps more. */
const decayFor = (sev: number, located: boolean, distinct: number, check = false) =>
  check ? Math.max(CHECK_DECAY, decayOf(sev, located, distinct)) : decayOf(sev, located, distinct);

/** A location, or a line number in words (`In src/run.sh line 41:`). */
const namesPlace = (text: string) => isLocation(text) || /\bline \d+\b/i.test(text);

/** Worth lost per character of a block: its lines are what say why, worth their bytes. */
const BLOCK_COST = 400;
/**
 * The width of a line of a block: half a line's, so that a diff of long lines under a failure
 * leaves room for its title and its location.
 */
const blockCap = (cap: number) => Math.max(80, Math.floor(cap / 2));
/** Worth lost by a salient line shown without its block (only when the block does not fit). */
const ALONE_COST = 0.5;

/** The salient and new lines of the middle (not held), with their context. */
function middleUnits(
  c: Collected,
  held: Map<number, Held>,
  sp: Map<string, Span>,
  keyOf: KeyOf,
  shield: Shield,
  cap: number,
  opts: SelectOptions,
  checks: Checks,
  code: CodeWorth,
  named: ReadonlySet<number>,
) {
  const units: Pending[] = [];
  for (const cand of c.candidates) {
    if (held.has(cand.line)) continue;
    const line = (
      l: NumberedLine & { before?: string; after?: string },
      role: Role,
      isNew = false,
      width = cap,
    ) => {
      const shown = shield(l.line, l.text, { before: () => l.before, after: () => l.after });
      return entry(l.line, cutAround(shown, width, errorWordAt(shown)), role, isNew);
    };
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
    for (const a of cand.attached) entries.push(line(a, 'salient', false, blockCap(cap)));
    const scored = { kind: cand.kind, score: cand.score, ...(cand.weak ? { weak: true } : {}) };
    const check = checks.failing(cand.text) || named.has(cand.line);
    const sev = Math.max(
      cand.score > 0 ? severity(cand.text, opts.success, scored) : 0,
      check ? CHECK_SEVERITY : 0,
    );
    const loc = Math.max(locationWorth(cand.text), ...cand.attached.map((a) => locationWorth(a.text)));
    const worth =
      (sev > 0 ? memberRarity(count, cand.count || count) : 0) +
      sevWorth(sev, count, check) +
      0.8 * surprisal(count, c.lines) +
      (sev > 0 ? loc : 0) +
      code(cand.text) +
      position(cand.line, c.lines, opts.tailRatio);
    const length = entries.reduce((n, e) => n + entryCost(e), 0);
    const h: Held = {
      line: cand.line,
      text: cand.text,
      key: keyOf(cand.text),
      sev,
      worth,
      isNew,
      bonus: newBonus(c.compared?.fresh ?? 0, c.lines),
    };
    const unit = pending(
      h,
      entries,
      worth - length / 400,
      decayFor(sev, loc > 0, span?.distinct ?? 1, check),
    );
    units.push(note ? { ...unit, note } : unit);
  }
  return units;
}

/**
 * A new line carries its mark wherever it is shown: as a parent header, a block line or context
 * too, not only as a unit of its own (a passing test and an empty line are never news).
 */
function markNew(units: Pending[], newLines: Set<number>, drifted?: ReadonlySet<number>): void {
  for (const u of units) {
    for (const e of u.entries)
      if (e.role !== 'meta' && !e.isNew && newLines.has(e.line) && !isPassLine(e.text)) {
        e.isNew = true;
        e.role = 'new';
      }
    if (drifted) markRecord(u, drifted);
  }
}

export function select(
  c: Collected,
  room: number,
  cap: number,
  shield: Shield,
  given: SelectOptions,
): Entry[] {
  const known = knownLines(c, shield);
  // A run whose verdict counts failures failed, whatever its exit status (see failedVerdict).
  const opts = given.success && failedVerdict(known, c.lines) ? { ...given, success: false } : given;
  const held = holdLines(c, known, cap, opts);
  // A failing check among passing ones is as severe as an error, whatever its words (see checks.ts).
  const checks = checksOf([...held.values()].map((h) => h.text));
  // A failure's details elsewhere, linked by its name, are as severe (see namesakes.ts).
  const named = linkNamesakes([...held.values(), ...c.candidates], opts.success);
  markFailing(held, (h) => checks.failing(h.text) || named.has(h.line), opts.success);
  const keyOf = mineKeys(held, c.candidates);
  for (const h of held.values()) h.key = keyOf(h.text);
  const sp = spans(held, c.candidates, keyOf);
  const found = [
    ...[...held.values()].map((h) => ({ text: h.text, count: 1 })),
    ...c.candidates.filter((k) => !held.has(k.line)).map((k) => ({ text: k.text, count: k.count })),
  ];
  // A rare rule code, or a rare message in a finding's own words (see messages.ts).
  const rule = codeRarity(found);
  const message = messageRarity(found);
  const code = (t: string) => Math.max(rule(t), message.worth(t));
  // A held line's rare variable part (see slots.ts) is worth as much as a rare rule code.
  const slot = slotRarity(held.values());
  // A rare kind in the line's own words (see kinds.ts) is a rare rule code too, for the lines
  // that say less than an error (an error's words already make it worth seeing).
  const lesser = [...held.values()].filter((h) => h.sev < 6).map((h) => h.text);
  const kind = kindRarity(lesser);
  // A field's rare value (see fields.ts) is one too.
  const field = fieldRarity(lesser);
  const rarity = (t: string) => Math.max(code(t), kind.worth(t), field.worth(t));
  scoreHeld(held, sp, c.lines, opts, (t) => rarity(t) + slot.worth(t));
  evenChecks(held.values(), (n) => position(n, c.lines, opts.tailRatio));
  dampRuns(held.values(), (n) => position(n, c.lines, opts.tailRatio), room);
  for (const h of held.values())
    h.key += slot.tag(h.text) + kind.tag(h.text) + field.tag(h.text) + message.tag(h.text);
  const outline = outlineOf(held.values());
  liftOutline(held.values(), outline);
  liftEchoes(held.values());
  const units = [
    ...heldUnits(held, sp, c.lines, opts, cap),
    ...middleUnits(c, held, sp, keyOf, shield, cap, opts, checks, code, named),
  ];
  outlineDecay(units, outline);
  markNew(units, c.newLines, c.compared?.drifted);
  liftFirsts(units);
  const verdict = verdictLine(held.values(), c.lines);
  reserve(units, verdict, RESERVED);
  for (const n of tallyBeside((k) => held.get(k)?.text, verdict)) reserve(units, n, RESERVED / 4);
  // The first and the last line that say something: where the output starts and ends, so that a
  // log of salient-looking messages (commit messages that say "failed") never hides both ends.
  // A run that failed keeps its end, where its verdict is; its first line competes by its worth
  // with what failed.
  const said = [...held.values()].filter((h) => h.text.trim() !== '').map((h) => h.line);
  // (`--tail-ratio 1` asks for the end alone, 0 for the start alone.)
  if (said.length > 0 && opts.tailRatio < 1 && opts.success) reserve(units, Math.min(...said), RESERVED / 2);
  if (said.length > 0 && opts.tailRatio > 0) reserve(units, Math.max(...said), RESERVED / 2);
  return spend(units, room, c.lines);
}
