/**
 * An output's outline: the few unindented plain lines of one template that open its sections
 * (`diff --cc src/parser.py` before each file's hunks, `Only in b: pyproject.toml` among a
 * recursive diff, `==> log/app.log <==`). A template of a few members, each far from the next,
 * with hundreds of other lines between them, is a table of contents: each member names a part of
 * the output, and the summary shows them all before more of any one part. The lines that always
 * come right under a member (`index …`, `--- a/…`) are its header, not another outline.
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */

import { isLocation } from './salience.js';

/** A path, or a file name with its extension (`src/x.py`, `setup.cfg`). */
const namesFile = (text: string) => /\w\/[\w.-]|\w\.[A-Za-z]\w{0,5}\b/.test(text);

/** An outline has at least this many members, and at most this many (more is a listing). */
const MIN_MEMBERS = 2;
const MAX_MEMBERS = 16;
/** Lines per section, on average, for a template to be an outline rather than a run of lines. */
const MIN_SECTION = 12;

interface Line {
  line: number;
  text: string;
  key: string;
  /** Severity: a line that says something went wrong is worth its own, not an outline's. */
  sev: number;
}

/**
 * A line that may open a section: it starts with a word at the margin and names no place in
 * code (`In file included from lstate.h:17,` is where, not a part of the output).
 */
const opens = (text: string) => /^[A-Za-z]/.test(text) && !/:\d|\bline \d/i.test(text) && !isLocation(text);

/** The numbers of the lines that open an output's sections (see above). */
export function outlineOf(lines: Iterable<Line>): Set<number> {
  const all = [...lines];
  const byKey = new Map<string, Line[]>();
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const l of all) {
    first = Math.min(first, l.line);
    last = Math.max(last, l.line);
    // (Whether a line opens a section is asked of the members of small templates only, below.)
    if (l.sev > 0 || !/^[A-Za-z]/.test(l.text)) continue;
    const list = byKey.get(l.key);
    if (list) list.push(l);
    else byKey.set(l.key, [l]);
  }
  const span = last - first + 1;
  const outlines = new Map<string, Line[]>();
  for (const [key, members] of byKey) {
    const m = members.length;
    if (m < MIN_MEMBERS || m > MAX_MEMBERS) continue;
    // Far apart, on average, and across much of the output.
    const from = (members[0] as Line).line;
    const to = (members[m - 1] as Line).line;
    if (span / m < MIN_SECTION || to - from < span / 2) continue;
    // Each part is a file or a directory: most members name one (a line of code names none).
    if (members.filter((l) => namesFile(l.text)).length * 2 < m) continue;
    if (!members.every((l) => opens(l.text))) continue;
    outlines.set(key, members);
  }
  const out = new Set<number>();
  if (outlines.size === 0) return out;
  const keyOf = new Map(all.map((l) => [l.line, l.key]));
  for (const [key, members] of outlines) {
    // Always right under another outline's member: that member's header, not a section of its own.
    const under = members.every((l) => {
      const above = keyOf.get(l.line - 1);
      return above !== undefined && above !== key && outlines.has(above);
    });
    if (!under) for (const l of members) out.add(l.line);
  }
  return out;
}

/**
 * What an outline line is worth at least, and what is left of it per member shown: more than a
 * plain line's, less than an error's, so that a table of contents comes after what went wrong.
 */
const OUTLINE_WORTH = 9;
const OUTLINE_DECAY = 1;

/** Raises the outline's lines to an outline's worth. */
export function liftOutline(held: Iterable<{ line: number; worth: number }>, outline: Set<number>): void {
  if (outline.size > 0)
    for (const h of held) if (outline.has(h.line)) h.worth = Math.max(h.worth, OUTLINE_WORTH);
}

/** The outline's units lose little worth per member shown: each names another part. */
export function outlineDecay(units: Iterable<{ line: number; decay: number }>, outline: Set<number>): void {
  if (outline.size > 0)
    for (const u of units) if (outline.has(u.line)) u.decay = Math.max(u.decay, OUTLINE_DECAY);
}
