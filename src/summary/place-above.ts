/**
 * Where an error that names no place was found, when the tool says it on the lines above: a
 * location up to four lines above it, past a code frame and a blank line (gfortran's
 * `src/t.F90:52:13:`, a blank line, `   52 |     call json%deserialize(p, s)`, the bar under
 * it, then `Error: Found no matching specific binding…`), or the line right above naming a file
 * (`checking file lib/optimize/SplitChunksPlugin.js` above `Hunk #1 FAILED at 21.`). The source
 * line the location points at, echoed between them, comes too: it is what the error is about.
 */
import { chainAbove } from './chain.js';
import { indentOf, isLocation, scoreLine, shape } from './salience.js';
import { echoedLine, isSourceEcho, pointedLine } from './source-echo.js';

type LineAt = (line: number) => string | undefined;

/** How far above an error its place is looked for. */
const REACH = 4;
/** A code frame's bar alone, with the marks under the source (`      |             1`). */
const BAR = /^\s*\|/;
const WORD_START = /^[A-Za-z]/;
/** A file's path: a slash, or a name with an extension. */
const NAMES_FILE = /[\\/]\w|\w\.[A-Za-z]\w{0,5}\b/;

/**
 * The place of error line `n` (unindented, naming none itself) and the echo of the line it
 * points at, in line order; [] when the lines above say none.
 */
export function placeAbove(at: LineAt, n: number): number[] {
  const text = at(n);
  if (text === undefined || /^\s/.test(text) || isLocation(text)) return [];
  let echo: number | undefined;
  for (let k = n - 1; k >= Math.max(1, n - REACH); k--) {
    const above = at(k);
    if (above === undefined) return [];
    if (above.trim() === '' || BAR.test(above)) continue;
    if (isSourceEcho(above)) {
      echo ??= k;
      continue;
    }
    // A frame of a stack is indented: the place a tool names for an error opens its line.
    if (isLocation(above) && !/^\s/.test(above)) {
      const pointed = pointedLine(above);
      return echo !== undefined && pointed !== undefined && echoedLine(at(echo) ?? '') === pointed
        ? [k, echo]
        : [k];
    }
    // The line right above, naming a file: what was being done when it failed (a line of the
    // same stream: both open with a word, not one with a tool's tag such as `==21969==`).
    return k === n - 1 && WORD_START.test(above) && WORD_START.test(text) && NAMES_FILE.test(above)
      ? [k]
      : [];
  }
  return [];
}

/**
 * The line right above an error that names no place, at its indentation, when that line names
 * one: a record's fields (`"Pos": "internal/tag/rm.go:8:2",` above `"Err": "no required module
 * provides package …"`).
 */
function placeInRecord(view: LineAt, n: number): number | undefined {
  const own = view(n);
  const above = view(n - 1);
  if (own === undefined || above === undefined || isLocation(own) || !isLocation(above)) return undefined;
  return indentOf(above) === indentOf(own) && scoreLine(above).score <= 0 ? n - 1 : undefined;
}

/**
 * The step a tool was on when an error came, right above it at its indentation, when it names a
 * file and says nothing salient: a verbose build's `  Rendering Layout: _docs/setup.md` above its
 * `  Liquid Exception: …`, as `checking file lib/a.js` above `Hunk #1 FAILED` (see placeAbove),
 * whether or not the error names a place of its own. `at` reads the lines after their tag,
 * `raw` as they are. [] when the line above is none.
 */
export function stepAbove(at: LineAt, n: number, raw: LineAt = at): number[] {
  const text = at(n);
  const above = at(n - 1);
  if (text === undefined || above === undefined || indentOf(above) !== indentOf(text)) return [];
  // Both of one stream: both read after the same tag or log prefix (see tags.ts), or neither.
  if ((text === raw(n)) !== (above === raw(n - 1))) return [];
  const words = WORD_START.test(text.trimStart()) && WORD_START.test(above.trimStart());
  // A line that opens as the error does is a finding of the same list, not a step.
  const step = words && shape(above, 1) !== shape(text, 1) && NAMES_FILE.test(above);
  return step && scoreLine(above).score <= 0 ? [n - 1] : [];
}

/**
 * The lines above a held error that say where it was found or what led to it, added to its
 * `parents`: a compiler's chain (see chain.ts), the place said above an error that names none,
 * its record's field naming one.
 */
export function addPlaces(parents: number[], view: LineAt, raw: LineAt, n: number): void {
  const add = (k: number) => {
    if (!parents.includes(k)) parents.push(k);
  };
  for (const k of chainAbove(view, n)) add(k);
  if (parents.length === 0) parents.push(...placeAbove(raw, n));
  const field = placeInRecord(view, n);
  if (field !== undefined) add(field);
}
