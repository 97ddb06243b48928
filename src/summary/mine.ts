/**
 * Template mining in the manner of Drain (He et al. 2017), on the bounded set of lines the
 * summary chooses from: each line's masked form (numbers, paths, quoted names masked) is split
 * into tokens; lines of one kind, one length and one first token whose tokens agree at half
 * their positions or more are one template, the positions where they differ being its variable
 * parts. So `22/22 Test #22: misc_tests ..... Passed` and `8/22 Test #8: parse_value ... Passed`
 * are one template, although no mask knows that a test's name is a variable.
 */
import { logPrefix, pastPrefix } from './log-prefix.js';
import { template } from './salience.js';

/** The share of positions two lines must agree at to be one template. */
const SIMILAR = 0.5;
/** Templates compared with a line in one bucket at most (the cost per line is bounded). */
const MAX_PER_BUCKET = 64;

interface Cluster {
  id: number;
  tokens: string[];
}

/** A token that is itself a mask (or holds one) stands for any value: it picks no bucket. */
const isVariable = (token: string) => /[#PQH]/.test(token.replace(/[A-Za-z]{2,}/g, ''));

function similarity(a: string[], b: string[]): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i] && a[i] !== '*') same++;
  return same / a.length;
}

/**
 * Mines the templates of `lines` (in the order given: the result depends on it, so give line
 * order) and returns the key of each line's template, by the line's text. `kind` keeps lines of
 * different kinds apart (a failing check is never one template with the passing ones).
 */
export function mineTemplates(lines: Iterable<{ text: string; kind: string }>): Map<string, string> {
  const all = [...lines];
  // A log's prefix shared by most lines is left out of the comparison (see log-prefix.ts).
  const prefix = logPrefix(all.map(({ text }) => template(text).split(' ')));
  const buckets = new Map<string, Cluster[]>();
  const keys = new Map<string, string>();
  const byMasked = new Map<string, string>();
  let next = 0;
  for (const { text, kind } of all) {
    if (keys.has(text)) continue;
    const masked = `${kind}\u0000${template(text)}`;
    const known = byMasked.get(masked);
    if (known !== undefined) {
      keys.set(text, known);
      continue;
    }
    const whole = template(text).split(' ');
    const tokens = pastPrefix(whole, prefix);
    const first = whole[0] ?? '';
    const bucketKey = `${kind}|${whole.length}|${isVariable(first) ? '*' : first}`;
    let bucket = buckets.get(bucketKey);
    if (!bucket) {
      bucket = [];
      buckets.set(bucketKey, bucket);
    }
    let best: Cluster | undefined;
    let bestSim = 0;
    for (const c of bucket) {
      const s = similarity(tokens, c.tokens);
      if (s > bestSim) [best, bestSim] = [c, s];
    }
    if (best && bestSim >= SIMILAR && tokens.length > 1) {
      const b = best;
      b.tokens = b.tokens.map((t, i) => (t === tokens[i] ? t : '*'));
    } else {
      best = { id: next++, tokens };
      if (bucket.length < MAX_PER_BUCKET) bucket.push(best);
    }
    const key = `t${best.id}`;
    keys.set(text, key);
    byMasked.set(masked, key);
  }
  return keys;
}
