/**
 * How ctxwrap shows a control character, line separator or direction mark it must not print
 * as it is: `^[` for a C0 control, `^?` for DEL, `<U+202E>` for the rest. Used by the cleaning
 * of outputs (summary, read, search) and by error messages that quote input.
 */

/** Every control character (newline and tab too), line separator and bidi control. */
const UNSAFE_OR_NEWLINE_RE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** The visible form of one control character or direction mark. */
export function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Shows every control character (newline and tab too), line separator and bidi control of a
 * text visibly (`^[`, `<U+202E>`), stripping nothing: for one-line messages that quote input.
 */
export function showControls(text: string): string {
  return text.replace(UNSAFE_OR_NEWLINE_RE, visible);
}
