/**
 * JSON for an agent or a terminal: `JSON.stringify`, with every character that could reorder,
 * hide or break what a reader sees written as a `\uXXXX` escape: C1 controls (U+009B is a
 * terminal's CSI), bidirectional overrides (U+202E), line and paragraph separators (U+2028),
 * format and other invisible characters. The value parsed back is the same.
 */

// C1 controls and DEL, format characters, separators and default-ignorable code points (U+034F, U+115F,
// U+3164, U+FE0F, ...); C0 controls are escaped by JSON.stringify already.
const UNSAFE = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Co}\p{Cn}]/gu;

function escapeChar(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** `JSON.stringify(value, null, space)` with unsafe characters escaped (see above). */
export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSAFE, escapeChar);
}
