/**
 * A log record told in several lines: each line of it repeats the record's prefix (the time, the
 * process, the session) and goes on with a word of its own (`… ERROR:  new row violates …`, then
 * `… DETAIL:  Failing row contains …`, `… STATEMENT:  UPDATE …`). The lines after an error that
 * share its prefix say why, as an indented block does.
 */
import { errorWordAt } from './salience.js';

/** The shortest prefix that marks a record: a time or a process id, not a one-word tag. */
const MIN_PREFIX = 12;

/** Whether `next` is a line of the record `header` opens: the same prefix, with a digit in it. */
export function sameRecord(header: string, next: string): boolean {
  const at = errorWordAt(header);
  if (at < MIN_PREFIX) return false;
  const prefix = header.slice(0, at);
  return (
    next.length > at + 1 &&
    next.startsWith(prefix) &&
    /\d/.test(prefix) &&
    /\w/.test(next[at] as string) &&
    errorWordAt(next) !== at
  );
}
