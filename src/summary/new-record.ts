/**
 * A new finding's record. A linter prints a finding as a header and its message
 * (`src/requests/models.py:467 in public method \`prepare_method\`:` above `D102: Missing
 * docstring`); when the message is new since the last run and the header differs from a line of
 * that run only in its numbers (it was paired with it as drift), the header is part of the news:
 * it says where the new finding is. It is marked with the message, never on its own.
 */
import type { Entry } from './assemble.js';

/** Marks the parent entries of a unit whose line is new, when they drifted (see Compared.drifted). */
export function markRecord(u: { line: number; entries: Entry[] }, drifted: ReadonlySet<number>): void {
  const main = u.entries.find((e) => e.line === u.line && e.role !== 'meta');
  if (!main?.isNew) return;
  for (const e of u.entries)
    if (e.line < u.line && e.role !== 'meta' && !e.isNew && drifted.has(e.line)) {
      e.isNew = true;
      e.role = 'new';
    }
}
