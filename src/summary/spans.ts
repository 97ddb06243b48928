/**
 * The templates of the lines the summary chooses from, and how many lines each has over the
 * whole output (see select.ts).
 */
import type { Candidate } from './collected.js';
import { mineTemplates } from './mine.js';
import { scoreLine, template } from './salience.js';

/** A held line as these read it. */
interface Line {
  line: number;
  text: string;
  key: string;
}

/** How many lines share a template, and the first and last of them. */
export interface Span {
  count: number;
  /** How many distinct lines (by fine template): a failure reported twice is one failure. */
  distinct: number;
  first: number;
  last: number;
}

/** A line's template key (see mine.ts). */
export type KeyOf = (text: string) => string;

/** Mines the templates of the held lines and the candidates together, in line order. */
export function mineKeys(held: Map<number, Line>, candidates: Candidate[]): KeyOf {
  const lines: { line: number; text: string; kind: string }[] = [];
  for (const h of held.values()) lines.push({ line: h.line, text: h.text, kind: scoreLine(h.text).kind });
  for (const c of candidates) lines.push({ line: c.line, text: c.text, kind: c.kind });
  lines.sort((a, b) => a.line - b.line);
  const keys = mineTemplates(lines);
  return (text) => keys.get(text) ?? template(text);
}

/**
 * How many lines each template has: per fine template (quoted names kept), the more of the held
 * lines and the collector's count over the whole output (which includes the held lines), summed
 * over the fine templates of a mined one.
 */
export function spans(held: Map<number, Line>, candidates: Candidate[], keyOf: KeyOf): Map<string, Span> {
  const fine = new Map<string, Omit<Span, 'distinct'> & { key: string }>();
  const add = (f: string, key: string, count: number, first: number, last: number, max: boolean) => {
    const s = fine.get(f);
    if (!s) fine.set(f, { key, count, first, last });
    else {
      s.count = max ? Math.max(s.count, count) : s.count + count;
      s.first = Math.min(s.first, first);
      s.last = Math.max(s.last, last);
    }
  };
  for (const h of held.values()) add(template(h.text, true), h.key, 1, h.line, h.line, false);
  const groups = new Map<string, Omit<Span, 'distinct'> & { key: string }>();
  for (const c of candidates) {
    const f = template(c.text, true);
    const g = groups.get(f);
    if (!g) groups.set(f, { key: keyOf(c.text), count: c.count, first: c.line, last: c.lastLine });
    else {
      g.count += c.count;
      g.first = Math.min(g.first, c.line);
      g.last = Math.max(g.last, c.lastLine);
    }
  }
  for (const [f, g] of groups) add(f, g.key, g.count, g.first, g.last, true);
  const out = new Map<string, Span>();
  for (const s of fine.values()) {
    const o = out.get(s.key);
    if (!o) out.set(s.key, { count: s.count, distinct: 1, first: s.first, last: s.last });
    else {
      o.count += s.count;
      o.distinct++;
      o.first = Math.min(o.first, s.first);
      o.last = Math.max(o.last, s.last);
    }
  }
  return out;
}
