/**
 * Diminishing returns per block, as per template. A long run of lines indented under the line
 * that opens it (a failure's `got:` dump of a hundred struct fields, a spec listing's nested
 * suite titles) is one thing to an agent, however many of its lines are singletons of their own
 * template, while other blocks wait: its best plain lines keep their worth up to its share of the
 * room, each next one keeps a part of it, so that the run cannot fill the room. Lines that say
 * something (a severity, a new line, a failing check) keep theirs; the end and the start still
 * count (see position).
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */
import { indentOf } from './salience.js';

interface Line {
  line: number;
  text: string;
  sev: number;
  worth: number;
  isNew: boolean;
}

/** A run shorter than this is a block's detail, shown by its worth alone. */
const MIN_RUN = 8;
/** What is left of a plain line's worth per line of its run shown past its share (see PLAIN_DECAY). */
const RUN_DECAY = 0.3;

/** An empty line ends a run; one of spaces only, as deep as the run, is a line of it. */
const blank = (text: string) => text.length === 0;

/**
 * The runs of consecutive lines, each deeper than the line right above the run (its opener): the
 * lines of each run, by number. An empty line ends a run; a run with no opener is none.
 */
function runsOf<T extends Line>(lines: readonly T[]): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let base = -1;
  const close = () => {
    if (run.length >= MIN_RUN) runs.push(run);
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as T;
    const prev = lines[i - 1];
    const follows = prev !== undefined && prev.line === l.line - 1;
    if (!follows || blank(l.text)) {
      close();
      base = blank(l.text) ? -1 : indentOf(l.text);
      continue;
    }
    if (base >= 0 && indentOf(l.text) > base) run.push(l);
    else {
      close();
      base = indentOf(l.text);
    }
  }
  close();
  return runs;
}

/** The severity from which a line outside a run is a block waiting for room (an error's). */
const WAITING_FROM = 8;
/** What a line costs in the summary beyond its text: its number and newline. */
const LINE_COST = 8;

/**
 * Damps the plain lines of each long indented run past its share of the room: the room over one
 * plus the lines outside it that say something went wrong (they wait for room too). A run under
 * the one error of an output keeps about half the room; one among ten failures a tenth.
 */
export function dampRuns<T extends Line>(
  held: Iterable<T>,
  position: (line: number) => number,
  room: number,
): void {
  const lines = [...held].sort((a, b) => a.line - b.line);
  const severe = (l: T) => l.sev >= WAITING_FROM;
  const all = lines.filter(severe).length;
  for (const run of runsOf(lines)) {
    // (A run's lines are all the held lines from its first to its last.)
    const waiting = all - run.filter(severe).length;
    const share = room / (1 + waiting);
    const plain = run.filter((l) => l.sev <= 0 && !l.isNew);
    const own = (l: T) => l.worth - position(l.line);
    plain.sort((a, b) => own(b) - own(a) || a.line - b.line);
    let used = 0;
    let past = 0;
    for (const l of plain) {
      used += l.text.length + LINE_COST;
      if (used <= share) continue;
      past++;
      l.worth = own(l) * RUN_DECAY ** past + position(l.line);
    }
  }
}
