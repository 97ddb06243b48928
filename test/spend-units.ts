/** Units and lines as select.ts makes them, for the tests of spend. */
import type { Entry } from '../src/summary/assemble.js';
import type { Pending } from '../src/summary/spend.js';

export const line = (n: number, text: string): Entry => ({ line: n, text, role: 'salient' });

/** A unit: its entries, one template, its main line's text, a score. */
export const unit = (entries: Entry[], score: number, key = 't1', decay = 0.7): Pending => ({
  entries,
  score,
  line: entries[0]?.line ?? 0,
  key,
  bonus: 0,
  main: entries[0]?.text ?? '',
  decay,
});
