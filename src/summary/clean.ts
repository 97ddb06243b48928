/**
 * Cleaning of what an agent sees (never of the stored file): ANSI escape sequences removed,
 * `\r` progress rewrites reduced to their final state, other control characters and
 * bidirectional overrides made visible so that nothing printed can move a cursor, clear a
 * screen, set a title or reorder text.
 */
import { visible } from '../controls.js';

export { showControls } from '../controls.js';

// CSI (ESC [ ... final), OSC (ESC ] ... BEL | ESC \), DCS/SOS/PM/APC strings, two-byte escapes,
// and the 8-bit C1 CSI.
const ANSI_RE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)|\x1b[PX^_][^\x1b]*(?:\x1b\\|$)|\x1b[ -/]*[0-~]/g;

// Controls other than tab, the Unicode line and paragraph separators (some readers break lines
// there), and the bidi overrides/isolates and other invisible direction marks that can make
// text display differently from its logical order.
const UNSAFE_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** Removes ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') || text.includes('\x9b') ? text.replace(ANSI_RE, '') : text;
}

/**
 * Cleans one line (no `\n` inside): strips ANSI, keeps the final state of `\r` rewrites
 * (the last non-empty segment), and makes the remaining control characters visible.
 */
export function cleanLine(line: string): string {
  let s = stripAnsi(line);
  if (s.includes('\r')) {
    const parts = s.split('\r');
    let last = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      if (parts[i] !== '') {
        last = parts[i] as string;
        break;
      }
    }
    s = last;
  }
  UNSAFE_RE.lastIndex = 0;
  return UNSAFE_RE.test(s) ? s.replace(UNSAFE_RE, visible) : s;
}

/** Splits text on `\n` (a final newline does not start an extra line) and cleans each line. */
export function cleanLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map(cleanLine);
}
