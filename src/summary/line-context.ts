/**
 * The lines around a candidate that explain it: the owner or the location line above it, read
 * from the bytes before it, and the location and detail lines that follow an error.
 */

import { isBlockDetail, isLabel } from './blocks.js';
import { cleanLine } from './clean.js';
import type { Candidate, NumberedLine } from './collected.js';
import { sameRecord } from './record.js';
import { isLocation } from './salience.js';
import { isCaretLine } from './source-echo.js';
import { isOwnLocation } from './worth.js';

/** How many bytes before a line are read for its owner or location. */
export const LOOKBACK_BYTES = 8192;
const OWNER_LOOKBACK = 120;
const LOCATION_LOOKBACK = 4;
/** An exception's own line: `ValueError: ...`, `java.lang.IllegalStateException: ...`. */
const EXCEPTION_LINE = /^(?:[a-z_][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Failure)\b/;
const NL = 10;

/**
 * Sets a new candidate's owner: the nearest preceding unindented line for an indented line that
 * names no file (when that one names none either, a line naming one above it in its paragraph: a
 * report's `FILE: x.php` above its rules and counts), or the location just above an exception
 * (within four lines) or any other error that names no place (the line right above it).
 * `before` gives the (at most LOOKBACK_BYTES) bytes before the line; it is called only when the
 * candidate wants either.
 */
export function addContext(c: Candidate, before: () => Buffer): void {
  const indented = /^\s/.test(c.text);
  const wantsOwner = indented && !/[\\/]|\.\w+:\d/.test(c.text);
  const exception = !indented && EXCEPTION_LINE.test(c.text);
  // An error that names no place of its own (`*** Failed! Falsified`) under a title that does.
  const titled =
    !indented &&
    !exception &&
    (c.kind === 'error' || c.kind === 'count') &&
    c.score >= 8 &&
    !isLocation(c.text);
  const wantsLocation = exception || titled;
  if (!wantsOwner && !wantsLocation) return;
  const bytes = before();
  let end = bytes.length - 1; // the newline ending the line above
  /** The nearest unindented line, when it names no file: a file named above it in its paragraph wins. */
  let nearest: NumberedLine | undefined;
  const lookback = wantsOwner ? OWNER_LOOKBACK : exception ? LOCATION_LOOKBACK : 1;
  for (let back = 1; end > 0 && back <= lookback; back++) {
    const start = bytes.lastIndexOf(NL, end - 1) + 1;
    if (start === 0 && bytes.length === LOOKBACK_BYTES) break; // the line may start further back
    const text = cleanLine(bytes.toString('utf8', start, end));
    if (nearest && text.trim() === '') break;
    // A rule of dashes or box characters is no owner: the line above it may be.
    if (wantsOwner && start < end && bytes[start] !== 32 && bytes[start] !== 9 && /[A-Za-z]{2}/.test(text)) {
      const owner = { line: c.line - back, text };
      if (NAMES_FILE.test(text)) {
        c.owner = owner;
        return;
      }
      nearest ??= owner;
    }
    if (wantsLocation && isLocation(text)) {
      c.owner = { line: c.line - back, text };
      return;
    }
    end = start - 1;
  }
  if (nearest) c.owner = nearest;
}

/** A file's path: a slash, or a name with an extension. */
const NAMES_FILE = /[\\/]|\w\.[A-Za-z]\w*\b/;

/**
 * A line under an error that says where or why: a location (the first in the project's own
 * files), an assertion's expected and received values, a diff marker, a label of what was
 * compared and its value, the next line of its log record (`line` is its number).
 */
export function belongs(text: string, error: Candidate, line: number): boolean {
  if (isBlockDetail(text) || isLabel(text)) return true;
  // The value under a label (`---- Result was:` above it: see isLabel).
  const last = error.attached.at(-1);
  if (last && line === last.line + 1 && isLabel(last.text) && text.trim() !== '') return true;
  // The next line of its log record (see record.ts).
  if (line === (error.attached.at(-1)?.line ?? error.line) + 1 && sameRecord(error.text, text)) return true;
  if (!isLocation(text)) return false;
  return (
    error.attached.every((a) => !isOwnLocation(a.text)) &&
    (isOwnLocation(text) || error.attached.length === 0)
  );
}

/** An error whose next lines are read for what belongs to it (see Collector.attach). */
export interface Pending {
  candidate: Candidate;
  remaining: number;
  /** The line read before this one, and whether a source line was attached (see echoAbove). */
  previous?: NumberedLine;
  echoed?: boolean;
}

/**
 * Attaches the source line a caret points into (see isCaretLine) when `text`, read under an
 * error, is the caret line and `previous` the line above it: what the error is about. True when
 * it did.
 */
export function echoAbove(error: Candidate, previous: NumberedLine | undefined, text: string): boolean {
  if (previous === undefined || !isCaretLine(text) || isCaretLine(previous.text)) return false;
  if (error.attached.some((a) => a.line === previous.line)) return true;
  error.attached.push(previous);
  return true;
}
