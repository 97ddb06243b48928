/**
 * A log's prefix: the first words that most lines share once numbers are masked (a time, a
 * process, a level's place: `10526:S 26 Nov 2026 13:38:42.605`). Drain (He et al. 2017) strips
 * such a header before it mines templates: left in, its constant words make any two lines of one
 * length agree at half their words, and `# Connection with master lost.` is one template with
 * `* Caching the disconnected master state.`.
 */

/** The share of lines that must open with the prefix. */
const SHARE = 0.8;
/** The most words a prefix may have. */
const MAX_WORDS = 8;
/** Lines needed before a prefix is looked for. */
const MIN_LINES = 20;

/**
 * The log's prefix in masked tokens (none when empty): the longest run of leading tokens that at
 * least SHARE of the lines have alike, with at least one token that is a word (a prefix of
 * masked numbers alone is a listing's columns, not a header), and a token left after it.
 */
export function logPrefix(lines: readonly (readonly string[])[]): readonly string[] {
  if (lines.length < MIN_LINES) return [];
  const need = Math.ceil(SHARE * lines.length);
  // The lines that open with the prefix so far; each step extends it by their commonest token.
  let open = lines.filter((t) => t.length > 1);
  const prefix: string[] = [];
  let best = 0;
  for (let k = 0; k < MAX_WORDS && open.length >= need; k++) {
    const counts = new Map<string, number>();
    let top = '';
    for (const t of open) {
      if (t.length <= k + 1) continue;
      const c = (counts.get(t[k] as string) ?? 0) + 1;
      counts.set(t[k] as string, c);
      if (c > (counts.get(top) ?? 0)) top = t[k] as string;
    }
    if ((counts.get(top) ?? 0) < need) break;
    prefix.push(top);
    if (best > 0 || /[A-Za-z]{2}/.test(top.replace(/\b[PQH]\b/g, ''))) best = prefix.length;
    open = open.filter((t) => t.length > k + 1 && t[k] === top);
  }
  return prefix.slice(0, best);
}

/**
 * A line's tokens past the prefix, as far as it opens with it (a line with another level after
 * the log's time and process is past them too), and never its last token.
 */
export function pastPrefix(tokens: string[], prefix: readonly string[]): string[] {
  let i = 0;
  while (i < prefix.length && i < tokens.length - 1 && tokens[i] === prefix[i]) i++;
  return i === prefix.length || i >= 2 ? tokens.slice(i) : tokens;
}
