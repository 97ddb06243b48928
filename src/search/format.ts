/**
 * Printing search hits. Every line ctxwrap writes itself starts with `[ctxwrap`; every line
 * quoted from a stored output is prefixed with its line number (`120: `), cleaned, cut, and
 * escaped with inert() when it could pass for a ctxwrap line, so nothing stored can forge a
 * frame. The text is bounded by `maxChars`; hits that do not fit are counted as more.
 */

import { formatCount } from '../format.js';
import { safeJson } from '../safe-json.js';
import { commandText } from '../store/command-text.js';
import type { ResultMeta } from '../store/results.js';
import { cleanLine } from '../summary/clean.js';
import { cutLine, inert, repeatMarker } from '../summary/render.js';
import type { Hit, HitLine, Outcome } from './search.js';

/** Most characters shown of one stored line. */
export const LINE_CAP = 200;
/** Most characters of a command or note shown in a hit's frame. */
const FIELD_CAP = 80;
/** Room kept for the closing line. */
const FOOTER_ROOM = 160;

/** One line of ctxwrap's own text from anything stored or typed: no newline, no control. */
export function oneLine(text: string, cap = FIELD_CAP): string {
  return cutLine(cleanLine(text.replace(/[\r\n]+/g, ' ').trim()), cap);
}

/** A result's command as stored, unmasked: what tells re-runs of one command apart (never printed). */
export function commandOf(meta: ResultMeta): string {
  if (meta.source === 'stdin') return meta.name ? `stdin (${meta.name})` : 'stdin';
  if (meta.source === 'shell') return meta.command[2] ?? '';
  return meta.command.join(' ');
}

const MARK_ROOM = 28;

function cutMark(bytes: number): string {
  return bytes < 0 ? '…[over 8 MiB cut]…' : `…[${formatCount(bytes)} bytes cut]…`;
}

/** How far a window's start moves back to begin where a word, key or tag begins. */
const SNAP = 24;
const BOUNDARY = /[\s,;{[(]/;

/**
 * Where a window meant to start at `at`, before a match at `match`, starts: the line's start when
 * that is close; else just after the nearest space or opening punctuation before it, or failing
 * that after it (not past the match), so that `"err":{…` or `<testcase …` is shown whole, not
 * from its middle; else `at`.
 */
function snapStart(text: string, at: number, match = at): number {
  if (at <= SNAP) return 0;
  for (let i = at + 1; i > at - SNAP; i--) if (BOUNDARY.test(text[i - 1]!)) return i;
  for (let i = at + 2; i <= Math.min(match, at + SNAP); i++) if (BOUNDARY.test(text[i - 1]!)) return i;
  return at;
}

function safeSlice(text: string, from: number, to: number): string {
  let a = Math.max(0, from);
  let b = Math.min(text.length, to);
  if (a > 0 && (text.charCodeAt(a) & 0xfc00) === 0xdc00) a++;
  if (b < text.length && (text.charCodeAt(b) & 0xfc00) === 0xdc00) b--;
  return text.slice(a, Math.max(a, b));
}

/**
 * A stored line as shown: whole when it fits in `cap` characters; else a window of it around
 * the first of `tokens` it holds (its start, or its end when read from the end, for a line
 * without one), with a cut mark
 * on each side saying how many bytes of the line are not shown.
 */
export function showLine(
  line: { text: string; before?: number; after?: number },
  tokens: readonly string[],
  cap = LINE_CAP,
): string {
  const { text } = line;
  const before = line.before ?? 0;
  const after = line.after ?? 0;
  if (text.length <= cap && before === 0 && after === 0) return text;
  const lower = text.toLowerCase();
  const room = Math.max(8, cap - 2 * MARK_ROOM);
  const near = nearest(lower, tokens, Math.floor((room * 2) / 3));
  // Two words or more: the line whole if it fits in the room of a window around each.
  if (near.words > 1 && text.length <= 2 * cap - 2 * MARK_ROOM && before === 0 && after === 0) return text;
  const several = near.all ? undefined : windowsAround(text, lower, line, tokens, cap, near.at);
  if (several !== undefined) return several;
  // Where most of `tokens` are near each other, else around the first (rarest first) it holds.
  const at = near.at;
  // Around the match; a context line read to its end only (next to the match) shows its end.
  let from = 0;
  if (text.length > room && at !== -1)
    from = Math.max(0, Math.min(at - Math.floor(room / 3), text.length - room));
  else if (text.length > room && after === 0 && before !== 0) from = text.length - room;
  const snapped = at === -1 ? from : snapStart(text, from, at);
  const shown = safeSlice(text, snapped, from + room);
  const start = text.indexOf(shown, snapped);
  const cutBefore = before < 0 ? -1 : before + Buffer.byteLength(text.slice(0, start));
  const cutAfter = after < 0 ? -1 : after + Buffer.byteLength(text.slice(start + shown.length));
  return `${cutBefore !== 0 ? cutMark(cutBefore) : ''}${shown}${cutAfter !== 0 ? cutMark(cutAfter) : ''}`;
}

/** Most places of one word looked at to find where the words of a long line are near each other. */
const MAX_PLACES = 256;

/**
 * The place in `lower` where the most of `tokens` (the query words first, rarest first) are found
 * within `span` characters after it: the first place of the rarest on a tie; `all` when every
 * token the line holds is there, and how many it holds. -1 when it holds none.
 */
function nearest(
  lower: string,
  tokens: readonly string[],
  span: number,
): { at: number; all: boolean; words: number } {
  const places: { at: number; k: number }[] = [];
  const held = new Set<number>();
  tokens.forEach((t, k) => {
    if (t.length < 2 || tokens.indexOf(t) !== k) return;
    for (let at = lower.indexOf(t), n = 0; at !== -1 && n < MAX_PLACES; at = lower.indexOf(t, at + 1), n++) {
      places.push({ at, k });
      held.add(k);
    }
  });
  if (places.length === 0) return { at: -1, all: false, words: 0 };
  places.sort((a, b) => a.at - b.at);
  // Worth of a set of tokens: how many, then the rarer first (a token's worth falls with its rank).
  const worth = (ks: Map<number, number>) => {
    let w = 0;
    for (const k of ks.keys()) w += 1 + 1 / (2 + k);
    return w;
  };
  let best = { at: -1, w: -1, n: 0 };
  const inside = new Map<number, number>();
  let j = 0;
  for (let i = 0; i < places.length; i++) {
    while (j < places.length && places[j]!.at - places[i]!.at <= span) {
      inside.set(places[j]!.k, (inside.get(places[j]!.k) ?? 0) + 1);
      j++;
    }
    const w = worth(inside);
    if (w > best.w) best = { at: places[i]!.at, w, n: inside.size };
    const k = places[i]!.k;
    const left = inside.get(k)! - 1;
    if (left === 0) inside.delete(k);
    else inside.set(k, left);
  }
  return { at: best.at, all: best.n === held.size, words: held.size };
}

/** Most query words a long line shows a window around each of. */
const MAX_WINDOWS = 4;

/**
 * A long line holding two or more of `tokens` (the query words first): a window around the
 * first place of each, in line order, in up to twice `cap` characters, with a cut mark between
 * windows and at the ends. Undefined when the line holds fewer than two.
 */
function windowsAround(
  text: string,
  lower: string,
  line: { before?: number; after?: number },
  tokens: readonly string[],
  cap: number,
  /** Where the words are nearest each other (see nearest): the first window is there. */
  cluster = -1,
): string | undefined {
  const places: number[] = cluster >= 0 ? [cluster] : [];
  for (const t of tokens) {
    if (places.length >= MAX_WINDOWS) break;
    if (t.length < 2) continue;
    // A word already beside a place is shown there; else its first place gets a window.
    let first = lower.indexOf(t);
    for (let at = first, k = 0; at !== -1 && k < 64; k++, at = lower.indexOf(t, at + 1)) {
      if (places.some((p) => Math.abs(p - at) < 80 || (p === cluster && at > p && at - p < cap))) {
        first = -1;
        break;
      }
    }
    if (first !== -1) places.push(first);
  }
  if (places.length < 2) return undefined;
  places.sort((a, b) => a - b);
  const budget = 2 * cap - (places.length + 1) * MARK_ROOM;
  const per = Math.max(24, Math.floor(budget / places.length));
  // Windows around each place (a third before it), merged where they meet.
  const spans: [number, number][] = [];
  for (const p of places) {
    const a0 = Math.max(0, p - Math.floor(per / 3));
    const a = snapStart(text, a0, p);
    const b = Math.min(text.length, a0 + per);
    const last = spans[spans.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else spans.push([a, b]);
  }
  const bytes = (a: number, b: number) => Buffer.byteLength(text.slice(a, b));
  const before = line.before ?? 0;
  const after = line.after ?? 0;
  let out = '';
  let end = 0;
  spans.forEach(([a, b], i) => {
    const shown = safeSlice(text, a, b);
    const start = text.indexOf(shown, a);
    const cut = i === 0 ? (before < 0 ? -1 : before + bytes(0, start)) : bytes(end, start);
    if (cut !== 0) out += cutMark(cut);
    out += shown;
    end = start + shown.length;
  });
  const tail = after < 0 ? -1 : after + bytes(end, text.length);
  return tail !== 0 ? out + cutMark(tail) : out;
}

/** A stored line as printed, without its number. */
const shown = (line: HitLine, tokens: readonly string[], cap: number) => inert(showLine(line, tokens, cap));

function quoted(line: HitLine, tokens: readonly string[], cap = LINE_CAP): string {
  return `${line.n}: ${shown(line, tokens, cap)}`;
}

/**
 * A hit's lines as printed: three or more identical lines in a row (a retry loop) are the first
 * and a count, as in the summary.
 */
function printed(lines: HitLine[], tokens: readonly string[], cap = LINE_CAP): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const text = shown(lines[i]!, tokens, cap);
    let j = i + 1;
    while (j < lines.length && lines[j]!.n === lines[j - 1]!.n + 1 && shown(lines[j]!, tokens, cap) === text)
      j++;
    if (j - i < 3) j = i + 1;
    out.push(`${lines[i]!.n}: ${text}`);
    if (j - i > 1) out.push(repeatMarker(j - i - 1));
    i = j;
  }
  return out;
}

function frame(hit: Hit, i: number, n: number, lines: HitLine[] = hit.lines): string {
  const meta = hit.entry.meta;
  const where =
    lines.length === 0 ? 'its note matches' : `lines ${lines[0]!.n}-${lines[lines.length - 1]!.n}`;
  const words = hit.found < hit.of ? ` (${hit.found} of ${hit.of} words)` : '';
  const runs = hit.runs > 1 ? ` · same lines in ${hit.runs} runs of this command, newest shown` : '';
  const note = hit.note ? ` · note: ${oneLine(hit.note)}` : '';
  return `[ctxwrap hit ${i}/${n}] ${meta.id} ${where} score ${hit.score.toFixed(1)}${words} · ${oneLine(commandText(meta))}${runs}${note}`;
}

/**
 * The header of a hit's record, above its lines (record.ts): ctxwrap's own line, so that it is
 * never taken for a matching line, with the stored line quoted after it.
 */
function headerLine(hit: Hit): string | undefined {
  if (!hit.header) return undefined;
  const up = hit.lines.length > 0 ? hit.lines[0]!.n - hit.header.n : 0;
  return `[ctxwrap record] ${hit.header.n}: ${inert(showLine({ text: hit.header.text }, [], LINE_CAP))}${up > 1 ? ` [ctxwrap: ${formatCount(up - 1)} lines above the hit]` : ''}`;
}

/** The lines of a hit that fit in `room` characters: matching lines first, then context. */
function fitLines(hit: Hit, room: number, tokens: readonly string[]): HitLine[] | undefined {
  let lines = hit.lines;
  const size = (ls: HitLine[]) => ls.reduce((n, l) => n + quoted(l, tokens).length + 1, 0);
  while (lines.length > 0 && size(lines) > room) {
    const firstMatch = lines.findIndex((l) => l.match);
    const lastMatch = lines.length - 1 - [...lines].reverse().findIndex((l) => l.match);
    if (firstMatch === -1) lines = lines.slice(0, -1);
    else if (lines.length - 1 - lastMatch > firstMatch) lines = lines.slice(0, -1);
    else if (firstMatch > 0) lines = lines.slice(1);
    else if (lines.length > 1) lines = lines.slice(0, -1);
    else return undefined;
  }
  return hit.lines.length > 0 && lines.length === 0 ? undefined : lines;
}

export interface Rendered {
  text: string;
  /** Hits printed. */
  shown: Hit[];
  /** Lines printed per hit. */
  lines: HitLine[][];
  more: number;
}

/** The text of a search: one line when nothing matches; else a header, the hits, and a closing line. */
export function renderHits(query: string, o: Outcome, maxChars: number): Rendered {
  const q = `"${oneLine(query)}"`;
  const results = `${formatCount(o.searched)} result${o.searched === 1 ? '' : 's'}`;
  if (o.hits.length === 0)
    return { text: `[ctxwrap search] no matches for ${q} in ${results}\n`, shown: [], lines: [], more: 0 };
  const notes: string[] = [];
  if (o.absent.length > 0)
    notes.push(`not found anywhere: ${o.absent.map((w) => oneLine(w, 40)).join(', ')}`);
  for (const w of o.byParts) notes.push(`no exact '${oneLine(w, 40)}', by its parts`);
  for (const f of o.fuzzy)
    notes.push(`no exact '${oneLine(f.word, 40)}', near: ${f.as.map((w) => oneLine(w, 40)).join(', ')}`);
  const header = (showing: string) =>
    `[ctxwrap search] ${q} in ${results}: ${showing}${notes.length > 0 ? ` · ${notes.join(' · ')}` : ''}`;
  const chosen: { hit: Hit; lines: HitLine[]; cap: number }[] = [];
  let used = header('99 hits, best first').length + 1 + FOOTER_ROOM;
  for (const hit of o.hits) {
    const head = frame(hit, 99, 99).length + 1 + (headerLine(hit)?.length ?? -1) + 1;
    const lines = used + head > maxChars ? undefined : fitLines(hit, maxChars - used - head, hit.tokens);
    if (lines === undefined) break;
    used += head + lines.reduce((n, l) => n + quoted(l, hit.tokens).length + 1, 0);
    chosen.push({ hit, lines, cap: LINE_CAP });
  }
  if (chosen.length === 0) {
    // Not even one hit fits whole: the first one's first matching line, cut narrower.
    const hit = o.hits[0]!;
    const line = hit.lines.find((l) => l.match);
    const fixed = header('1 hit, best first').length + frame(hit, 1, 1).length + 2 + FOOTER_ROOM / 2;
    const cap = Math.max(24, maxChars - fixed - String(line?.n ?? 0).length - 2);
    chosen.push({ hit, lines: line ? [line] : [], cap });
  }
  const more = o.more + o.hits.length - chosen.length;
  const n = chosen.length;
  const out = [header(`${n} hit${n === 1 ? '' : 's'}, best first`)];
  chosen.forEach(({ hit, lines, cap }, i) => {
    out.push(frame(hit, i + 1, n, lines));
    const record = lines.length > 0 && cap === LINE_CAP ? headerLine(hit) : undefined;
    if (record) out.push(record);
    out.push(...printed(lines, hit.tokens, cap));
  });
  if (more > 0) {
    const all = Math.min(more, o.moreWithAll + o.hits.length - chosen.length);
    const split = all < more && o.hits.some((h) => h.of > 1) ? ` (${formatCount(all)} with every word)` : '';
    out.push(
      `[ctxwrap search] ${formatCount(more)} more hit${more === 1 ? '' : 's'}${split}: add words, scope with --id <id>, or raise --limit`,
    );
  }
  return {
    text: `${out.join('\n')}\n`,
    shown: chosen.map((c) => c.hit),
    lines: chosen.map((c) => c.lines),
    more,
  };
}

/** The same hits as JSON, one object. */
export function renderJson(query: string, o: Outcome, r: Rendered): string {
  return `${safeJson({
    query,
    searched: o.searched,
    hits: r.shown.map((hit, i) => ({
      id: hit.entry.meta.id,
      command: commandText(hit.entry.meta),
      ...(hit.note ? { note: hit.note } : {}),
      ...((r.lines[i] ?? []).length > 0
        ? { lines: [r.lines[i]![0]!.n, r.lines[i]!.at(-1)!.n] }
        : { noteOnly: true }),
      ...(hit.header
        ? { record: { line: hit.header.n, text: showLine({ text: hit.header.text }, []) } }
        : {}),
      score: Number(hit.score.toFixed(3)),
      words: { found: hit.found, of: hit.of },
      ...(hit.runs > 1 ? { runs: hit.runs } : {}),
      snippet: (r.lines[i] ?? []).map((l) => ({
        line: l.n,
        text: showLine(l, hit.tokens),
        match: l.match,
      })),
    })),
    more: r.more,
    absent: o.absent,
    byParts: o.byParts,
    fuzzy: o.fuzzy,
  })}\n`;
}
