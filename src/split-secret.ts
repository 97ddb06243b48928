/**
 * A secret cut over two lines: `Authorization: Bearer` and the token on the next line, a JWT or
 * an AWS key wrapped at the terminal's width, a YAML `password:` with its value on the next line.
 * Each line alone holds nothing to mask; the end of one with the start of the next does.
 */
import { redactLine } from './redact.js';
import { mask } from './secret-kinds.js';

// The start of a line: its first word of token characters, after indentation.
const HEAD = /^(\s*)([A-Za-z0-9_+/=.~-]{4,8192})/;
// The end of a line: at most 96 characters, back to a space where there is one.
const TAIL = /\S[^\n]{0,95}$/;

// A line that may leave a secret open: it ends with a word that names one (`Bearer`,
// `password:`), with a run of token characters holding a digit (a token cut at the width), or
// with the start of an AWS key id (`AKIA…` cut before its 20 characters, digits or not).
const ENDS_OPEN =
  /(?:bearer|basic|token|passw(?:or)?d|passphrase|secret|key|authorization)["']?\s*[:=]?\s*$|(?=[A-Za-z0-9_+/=.-]{0,7}\d)[A-Za-z0-9_+/=.-]{8}\s*$|\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{0,15}\s*$/i;

/**
 * `line` with its first word masked when that word completes a secret begun at the end of
 * `before` (the line just before it, as stored): joined with a space (a header, a YAML key) or
 * without one (a wrapped token).
 */
export function maskContinuation(before: string, line: string): string {
  // Only the end of the line is looked at (a regex ending in $ would try every position).
  if (!ENDS_OPEN.test(before.length > 40 ? before.slice(-40) : before)) return line;
  const head = HEAD.exec(line);
  const tail = TAIL.exec(before.trimEnd())?.[0];
  if (!head || !tail) return line;
  const word = head[2] as string;
  // Masked on its own already: nothing carried over.
  if (redactLine(word) !== word) return line;
  // The word is part of a secret when masking the two lines joined eats into it.
  for (const joined of [`${tail} ${word}`, `${tail}${word}`]) {
    if (!redactLine(joined).endsWith(word))
      return `${head[1]}${mask('split-secret')}${line.slice(head[0].length)}`;
  }
  return line;
}
