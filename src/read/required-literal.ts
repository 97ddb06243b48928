/**
 * The longest run of plain characters that every match of a regular expression must contain:
 * `TS2\d{3}` → `TS2`, `connection (reset|refused)` → `connection `. `read --lines grep:` looks
 * for it with a native byte search and tests only the lines that contain it. Conservative: when
 * in doubt a character breaks the run, and an alternation at the top level gives nothing.
 */

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:,(\d*))?\})\??/;

/** Escapes whose letters or digits are syntax, with how much they consume after the backslash. */
function escapeLength(source: string, i: number): number {
  const c = source[i + 1] ?? '';
  const rest = source.slice(i + 2);
  if (c === 'x') return 2 + (/^[0-9a-fA-F]{2}/.test(rest) ? 2 : 0);
  if (c === 'u') {
    const m = /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(rest);
    return 2 + (m ? m[0].length : 0);
  }
  if (c === 'c') return 3;
  if (c === 'p' || c === 'P') return 2 + (/^\{[^}]*\}/.exec(rest)?.[0].length ?? 0);
  if (c === 'k') return 2 + (/^<[^>]*>/.exec(rest)?.[0].length ?? 0);
  if (/\d/.test(c)) return 2 + (/^\d*/.exec(rest)?.[0].length ?? 0);
  return 2;
}

/** Index just after the `]` closing the class that opens at `i`. */
function skipClass(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  for (; j < source.length && source[j] !== ']'; j++) if (source[j] === '\\') j++;
  return j + 1;
}

/** Index just after the `)` closing the group that opens at `i`. */
function skipGroup(source: string, i: number): number {
  let depth = 0;
  for (let j = i; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (c === '[') j = skipClass(source, j) - 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return source.length;
}

/** True when the pattern has a lookahead or lookbehind, which may look past the end of a line. */
export function hasLookaround(source: string): boolean {
  for (let j = 0; j < source.length; j++) {
    const c = source[j];
    if (c === '\\') j++;
    else if (c === '[') j = skipClass(source, j) - 1;
    else if (c === '(' && /^\(\?<?[=!]/.test(source.slice(j, j + 4))) return true;
  }
  return false;
}

/**
 * The longest plain run every match contains ('' when there is none). With the `i` flag the run
 * is in ASCII lower case, to be looked for in a lower-cased copy of the text: only ASCII
 * characters count as plain then, and with `u` not `k` or `s` either (they also match the
 * Kelvin sign and the long s).
 */
export function requiredLiteral(source: string, flags = ''): string {
  const ignoreCase = flags.includes('i');
  const unfoldable = flags.includes('u') ? /[^\x00-\x7f]|[ks]/i : /[^\x00-\x7f]/;
  let best = '';
  let run = '';
  const flush = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < source.length; ) {
    const c = source[i] as string;
    let literal: string | undefined;
    let next: number;
    if (c === '|') return '';
    if (c === '\\') {
      const e = source[i + 1] ?? '';
      next = i + escapeLength(source, i);
      if (e !== '' && !/[A-Za-z0-9]/.test(e)) literal = e;
    } else if (c === '[') next = skipClass(source, i);
    else if (c === '(') next = skipGroup(source, i);
    else if (c === '.' || c === '^' || c === '$' || c === ')') next = i + 1;
    else {
      const cp = source.codePointAt(i) as number;
      literal = String.fromCodePoint(cp);
      next = i + literal.length;
    }
    if (literal !== undefined && ignoreCase)
      literal = unfoldable.test(literal) ? undefined : literal.toLowerCase();
    const q = QUANTIFIER.exec(source.slice(next));
    if (q) next += q[0].length;
    if (literal === undefined) flush();
    else if (!q) run += literal;
    else {
      const min = q[0][0] === '+' ? 1 : q[0][0] === '{' ? Number(q[1]) : 0;
      if (min >= 1) run += literal;
      flush();
    }
    i = next;
  }
  flush();
  return best;
}
