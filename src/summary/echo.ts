/**
 * Lines that echo an error: a rare name in the error (`Cannot find module './tables/shiftjis.json'`,
 * `No matching version found for mockdate@^2.9.0`) that a few other lines also name (the one
 * lookup of `…/tables/shiftjis.json` among 600 that failed harmlessly, the one fetch of
 * `mockdate` among hundreds) says which of many alike lines led to it.
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */

/** The most severe lines whose names are looked for, and the least severity of one. */
const MAX_SOURCES = 3;
const MIN_SEVERITY = 10;
/** A name is rare when at most this many lines other than the errors hold it. */
const MAX_ECHOES = 4;
/** An echo is a member of a template of at least this many lines. */
const MIN_ALIKE = 8;
/** A name shorter than this says little (`main`, `test`). */
const MIN_NAME = 5;
/** Worth added to a line that echoes an error's rare name. */
const ECHO_WORTH = 3;

interface Line {
  line: number;
  text: string;
  sev: number;
  worth: number;
  key: string;
}

/**
 * The names in a line: words, file names and package names, not numbers, and not the file of a
 * location (`lobject.c:431:37: error: …`): a compiler names it on every line about that file.
 */
const namesIn = (text: string) =>
  text
    .replace(/[\w.-]+(?::\d+)+/g, ' ')
    .split(/[^\w.-]+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w.length >= MIN_NAME && /[A-Za-z]/.test(w));

/** The numbers of the lines that echo a rare name of the most severe lines (see above). */
export function echoesOf(lines: Line[]): Set<number> {
  const sources = lines
    .filter((l) => l.sev >= MIN_SEVERITY)
    .sort((a, b) => b.worth - a.worth || a.line - b.line)
    .slice(0, MAX_SOURCES);
  const out = new Set<number>();
  if (sources.length === 0) return out;
  // An echo is one of many alike lines: which of them led to the error.
  const members = new Map<string, number>();
  for (const l of lines) members.set(l.key, (members.get(l.key) ?? 0) + 1);
  const alike = (l: Line) => (members.get(l.key) ?? 0) >= MIN_ALIKE && l.sev < MIN_SEVERITY;
  const own = new Set(sources.map((s) => s.line));
  const names = new Set(sources.flatMap((s) => namesIn(s.text)));
  for (const name of names) {
    const whole = new RegExp(`(?<![\\w.-])${name.replace(/[.-]/g, '\\$&')}(?![\\w-])`);
    // Rare among all the lines (a target every build line names is no clue), echoed by alike ones.
    const holding: Line[] = [];
    for (const l of lines) {
      if (own.has(l.line) || !l.text.includes(name) || !whole.test(l.text)) continue;
      holding.push(l);
      if (holding.length > MAX_ECHOES) break;
    }
    if (holding.length <= MAX_ECHOES) for (const l of holding) if (alike(l)) out.add(l.line);
  }
  return out;
}

/**
 * Raises the lines that echo an error by ECHO_WORTH, each a template of its own (an echo is
 * not one more of the alike lines it is among).
 */
export function liftEchoes(held: Iterable<Line>): void {
  const lines = [...held];
  const echoes = echoesOf(lines);
  if (echoes.size > 0)
    for (const l of lines)
      if (echoes.has(l.line)) {
        l.worth += ECHO_WORTH;
        l.key += '\u0000echo';
      }
}
