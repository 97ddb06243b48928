/**
 * A helper's frame: the same own frame in several stacks (`at expectTokens (test/x.js:9:18)`
 * under every failure that calls it) says where the helper is, not which test failed. A
 * failure's block prefers the first own frame that is not one (see blockOf).
 */
import { isOwnLocation } from './worth.js';

/** Whether a line is an own frame that appears more than once among `texts`. */
export function repeatedFrames(texts: Iterable<string>): (text: string) => boolean {
  const seen = new Map<string, number>();
  for (const t of texts) {
    const key = t.trim();
    // A frame is a short line that names a place: a cheap test first.
    if (key.length > 300 || !/\d/.test(key)) continue;
    const n = seen.get(key);
    if (n !== undefined) seen.set(key, n + 1);
    else if (isOwnLocation(t)) seen.set(key, 1);
  }
  return (text) => (seen.get(text.trim()) ?? 0) > 1;
}
