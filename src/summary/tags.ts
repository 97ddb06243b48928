/**
 * A tool's channel tag at the start of its lines (`    [junit] `, `[INFO] `): what follows it
 * is the line as the tool under it printed it. A block's indentation and its words are read
 * after the tag, so that `    [junit] \tFAILED` sits under `    [junit] Testcase: testLs`.
 */
import type { LineAt } from './blocks.js';

const TAG = /^\s*\[[A-Za-z][\w.:-]{0,15}\] ?/;

/** The line's tag, without the spaces around it; undefined when it has none. */
const tagOf = (text: string) => TAG.exec(text)?.[0].trim();

/**
 * The lines as seen from line `n`: when `n` has a tag, every line with the same tag is read
 * without it (and without the spaces before it); other lines are read as they are.
 */
export function untagged(at: LineAt, n: number): LineAt {
  const text = at(n);
  const tag = text === undefined ? undefined : tagOf(text);
  if (tag === undefined) return at;
  return (k) => {
    const t = at(k);
    if (t === undefined) return t;
    const m = TAG.exec(t);
    return m && m[0].trim() === tag ? t.slice(m[0].length) : t;
  };
}
