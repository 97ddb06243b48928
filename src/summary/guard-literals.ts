/**
 * The literal starts of a guard regex's alternatives, read from its source: the bytes any match
 * must begin with. The guard scanner (guard-scan.ts) looks for these in the raw bytes and lets
 * the regex decide only where one is found, so a regex never runs over the whole output.
 *
 * Read for the subset of regex syntax the guard uses (literal characters and escapes, `(?:…)`
 * groups, alternation, classes, `\d`, quantifiers, `^`, `\b`); anything else ends a literal
 * there. A literal is sound when every match of its alternative starts with it: characters are
 * kept case-folded as the regex's `i` flag folds latin1, `\d` as DIGIT, `^` as a flag.
 */

/** A code that stands for any ASCII digit. */
export const DIGIT = 256;

export interface Literal {
  /** Case-folded latin1 codes (see foldByte), or DIGIT. */
  codes: number[];
  /** The match must start a line (after `\n` or `\r`, or at the start). */
  anchored: boolean;
  /** The literal is the whole of its alternative: finding it is a match, with nothing to check. */
  complete: boolean;
}

/**
 * A latin1 byte as the regex's `i` flag (without `u`) compares it: A-Z as a-z, and the
 * accented capitals 0xC0-0xDE (not ×) as their small forms. Every other byte is itself.
 */
export function foldByte(b: number): number {
  if (b >= 65 && b <= 90) return b + 32;
  if (b >= 0xc0 && b <= 0xde && b !== 0xd7) return b + 32;
  return b;
}

interface Path {
  codes: number[];
  anchored: boolean;
  /** More characters may still be added. */
  open: boolean;
  complete: boolean;
}

/** What one atom of the pattern is: a literal code, a group's paths, or anything else. */
type Atom =
  | { kind: 'code'; code: number }
  | { kind: 'group'; paths: Path[] }
  | { kind: 'zero' }
  | { kind: 'anchor' }
  | { kind: 'other' };

const CLASS_ESCAPES = new Set(['D', 'w', 'W', 's', 'S']);

class Reader {
  at = 0;
  constructor(readonly src: string) {}

  /** Reads an alternation up to `)` or the end. */
  alternation(): Path[] {
    const out: Path[] = [];
    for (;;) {
      out.push(...this.sequence());
      if (this.src[this.at] !== '|') return out;
      this.at++;
    }
  }

  private sequence(): Path[] {
    let paths: Path[] = [{ codes: [], anchored: false, open: true, complete: true }];
    while (this.at < this.src.length && this.src[this.at] !== '|' && this.src[this.at] !== ')') {
      const atom = this.atom();
      const q = this.quantifier();
      paths = paths.flatMap((p) => extend(p, atom, q));
    }
    return paths;
  }

  private atom(): Atom {
    const s = this.src;
    const c = s[this.at++] as string;
    if (c === '\\') return this.escape();
    if (c === '(') {
      let zero = false;
      if (s.startsWith('?:', this.at)) this.at += 2;
      else if (/^\?<?[=!]/.test(s.slice(this.at, this.at + 3))) {
        zero = true;
        this.at += s[this.at + 1] === '<' ? 3 : 2;
      } else if (s.startsWith('?<', this.at)) this.at = s.indexOf('>', this.at) + 1;
      const paths = this.alternation();
      this.at++; // ')'
      return zero ? { kind: 'zero' } : { kind: 'group', paths };
    }
    if (c === '[') {
      for (let i = this.at; i < s.length; i++) {
        if (s[i] === '\\') i++;
        else if (s[i] === ']' && i > this.at) {
          this.at = i + 1;
          break;
        }
      }
      return { kind: 'other' };
    }
    if (c === '^') return { kind: 'anchor' };
    if (c === '$' || c === '.') return c === '$' ? { kind: 'zero' } : { kind: 'other' };
    return { kind: 'code', code: c.charCodeAt(0) };
  }

  private escape(): Atom {
    const s = this.src;
    const c = s[this.at++] as string;
    if (c === 'd') return { kind: 'code', code: DIGIT };
    if (c === 'b' || c === 'B') return { kind: 'zero' };
    if (CLASS_ESCAPES.has(c) || /[0-9kpPc]/.test(c)) return { kind: 'other' };
    if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(this.at, this.at + 4))) {
      this.at += 4;
      return { kind: 'code', code: Number.parseInt(s.slice(this.at - 4, this.at), 16) };
    }
    if (c === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(this.at, this.at + 2))) {
      this.at += 2;
      return { kind: 'code', code: Number.parseInt(s.slice(this.at - 2, this.at), 16) };
    }
    const named: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };
    if (c in named) return { kind: 'code', code: named[c] as number };
    if (/[a-zA-Z]/.test(c)) return { kind: 'other' };
    return { kind: 'code', code: c.charCodeAt(0) };
  }

  /** The least count of the quantifier after an atom, and whether there is one. */
  private quantifier(): { min: number; any: boolean } {
    const s = this.src;
    const c = s[this.at];
    let q: { min: number; any: boolean } = { min: 1, any: false };
    if (c === '?' || c === '*') q = { min: 0, any: true };
    else if (c === '+') q = { min: 1, any: true };
    else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(s.slice(this.at));
      if (!m) return q;
      this.at += m[0].length - 1;
      q = { min: Number(m[1]), any: true };
    } else return q;
    this.at++;
    if (s[this.at] === '?') this.at++; // lazy
    return q;
  }
}

/** A path followed by an atom (repeated at least `q.min` times). */
function extend(p: Path, atom: Atom, q: { min: number; any: boolean }): Path[] {
  if (!p.open) return [p];
  const stop = (complete = false): Path => ({ ...p, open: false, complete: p.complete && complete });
  if (atom.kind === 'anchor') {
    if (p.codes.length === 0 && !p.anchored && !q.any) return [{ ...p, anchored: true }];
    return [stop()];
  }
  if (atom.kind === 'zero') return [{ ...p, complete: false }];
  if (atom.kind === 'other') return [stop()];
  if (atom.kind === 'code') {
    if (atom.code > 0xff && atom.code !== DIGIT) return []; // never in latin1 text
    const code = atom.code === DIGIT ? DIGIT : foldByte(atom.code);
    if (code === 10 || code === 13) return [stop()];
    const codes = [...p.codes, ...Array<number>(Math.min(q.min, 64)).fill(code)];
    if (!q.any) return [{ ...p, codes }];
    // `x?` and `x*` may be absent: the literal so far is a whole match only if nothing follows.
    return [{ ...p, codes, open: false, complete: false }];
  }
  if (q.any) return [stop()];
  return atom.paths.map((g) => {
    if (g.anchored && (p.codes.length > 0 || p.anchored)) return stop();
    return {
      codes: [...p.codes, ...g.codes],
      anchored: p.anchored || g.anchored,
      open: g.open,
      complete: p.complete && g.complete,
    };
  });
}

/**
 * The literal starts of the regex source's alternatives, or undefined when one of them has
 * none (an alternative that may match without a literal: every line must then be tried).
 */
export function guardLiterals(source: string): Literal[] | undefined {
  const r = new Reader(source);
  const paths = r.alternation();
  if (r.at < source.length) return undefined;
  const out: Literal[] = [];
  for (const p of paths) {
    if (p.codes.length === 0) return undefined;
    out.push({ codes: p.codes, anchored: p.anchored, complete: p.complete });
  }
  return out;
}
