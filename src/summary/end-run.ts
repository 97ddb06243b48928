/**
 * The run of identical lines the output ends with, however long (issue 20: 500,000 copies of a
 * line after some others were told as `N lines omitted`, then the line and `previous line
 * repeated 2,258 more times`, the copies the tail held). After each piece of whole lines the
 * collector scans, only the copies of the piece's last line at its end are looked at (one native
 * compare of the bytes against themselves shifted by a line), so the cost is that of the run, not
 * of the output. The summary then tells the run from its first line (see joinEndRun).
 */

import { type Entry, gapMarker, repeatMarker, SHORT_GAP } from './assemble.js';
import { type LineRun, periodic } from './line-run.js';
import { copyOf } from './sniff.js';
import { copiesEndingAt, pieceMost, runAtTail, SCAN_BYTES, type SeenRun } from './tail-run.js';

const NL = 10;
/** The note of a line shown for a template (see likeThis in assemble.ts). */
const LIKE_THIS = / \[\+[\d,]+ similar, (?:last|first) \d+\]$/;

export class EndRun {
  private bytes: Buffer | undefined;
  private from = 0;
  private to = 0;
  /** Long runs seen where a piece ended, the last ones (see tail-run.ts). */
  private readonly seen: SeenRun[] = [];

  /** `keepBytes`: the tail's size (the run the tail starts in is looked for, see tail-run.ts). */
  constructor(private readonly keepBytes: number) {}

  /**
   * The piece `work` of whole lines (the last may lack its newline, at the output's end) just
   * scanned, its last line numbered `last`. Pieces come in order, so the current run, when
   * there is one (no long line since), ends on the line before the piece.
   */
  piece(work: Buffer, last: number, endsAt: number): void {
    if (work.length === 0) return;
    const lead = this.bytes ? copiesAtStart(work, this.bytes) : 0;
    this.to += lead;
    if (lead > 0 && lead * (this.bytes as Buffer).length + lead === work.length) {
      this.record(endsAt);
      return;
    }
    const end = work.length;
    const closed = work[end - 1] === NL;
    // (A negative offset would count from the end: a piece of one empty line starts at 0.)
    const from = closed ? end - 2 : end - 1;
    const start = from < 0 ? 0 : work.lastIndexOf(NL, from) + 1;
    // A line too long to hold is not one of a run, however it came (see Collector.inlineHuge).
    if ((closed ? end - 1 : end) - start > this.keepBytes) {
      this.long(last);
      return;
    }
    const copies = closed ? copiesEndingAt(work, end, end - start, false) : 1;
    this.bytes = copyOf(work.subarray(start, closed ? end - 1 : end));
    this.from = last - copies + 1;
    this.to = last;
    this.record(endsAt);
  }

  /**
   * Keeps the current run when it is long (SCAN_BYTES or more: a shorter one the tail starts in
   * is found in the bytes held), and forgets those that ended too early to matter.
   */
  private record(endsAt: number): void {
    const line = this.bytes;
    const seen = this.seen;
    if (line && (this.to - this.from + 1) * (line.length + 1) >= SCAN_BYTES) {
      const top = seen.at(-1);
      // A run is known by its first line, which is exact wherever the run is seen.
      if (top?.from === this.from) Object.assign(top, { to: this.to, endsAt });
      else seen.push({ from: this.from, to: this.to, line, endsAt });
    }
    while (
      seen.length > 0 &&
      (seen[0] as SeenRun).endsAt < endsAt - this.keepBytes - pieceMost(this.keepBytes)
    )
      seen.shift();
  }

  /** A line too long to compare (numbered `line`) ends any run. */
  long(line: number): void {
    this.bytes = undefined;
    this.from = line;
    this.to = line;
  }

  /**
   * The run the tail starts in, when it began before the tail, and the run the output ends with,
   * each when it has two lines or more. `held`: the output's last bytes (see heldBytes), the
   * output `total` bytes and `lines` lines long.
   */
  result(held: Buffer, total: number, lines: number): LineRun[] {
    const out: LineRun[] = [];
    const tail = runAtTail(held, total, lines, this.keepBytes, this.seen);
    if (tail) out.push(tail);
    if (this.bytes && this.to > this.from && tail?.from !== this.from)
      out.push({ from: this.from, to: this.to });
    return out;
  }
}

/** How many copies of `line` and a newline start `work` (0 when none). */
function copiesAtStart(work: Buffer, line: Buffer): number {
  const p = line.length + 1;
  if (work.length < p || work[p - 1] !== NL || work.compare(line, 0, line.length, 0, p - 1) !== 0) return 0;
  return periodic(work, 0, p);
}

/**
 * The summary's entries with a run the tail starts in told from its first line: a marker of
 * omitted lines that reaches into the run stops before it, the first shown line of the run
 * stands for its first, and what is shown of the run after it becomes one repeat marker.
 */
export function joinEndRun(entries: Entry[], runs: readonly LineRun[] | undefined): Entry[] {
  let out = entries;
  for (const run of runs ?? []) out = joinOne(out, run);
  return out;
}

function joinOne(entries: Entry[], run: LineRun): Entry[] {
  const at = entries.findIndex((e) => e.role !== 'meta' && e.line >= run.from && e.line <= run.to);
  // Only where the run shows as a line and more (a repeat marker, copies): never grows the summary.
  if (at < 0 || !(entries[at + 1] && (entries[at + 1] as Entry).line <= run.to)) return entries;
  const before = entries.slice(0, at);
  const gap = before.at(-1);
  if (gap?.role === 'meta' && gap.from !== undefined && gap.line >= run.from - 1) {
    before.pop();
    // (A short gap stays short: the line after it stays numbered.)
    if (gap.from < run.from)
      before.push({
        ...gap,
        line: run.from - 1,
        text: gap.text === SHORT_GAP ? SHORT_GAP : gapMarker(gap.from, run.from - 1),
      });
  } else if ((gap?.line ?? 0) < run.from - 1) return entries;
  const { from: _, ...shown } = entries[at] as Entry;
  // A line numbered where it was shown is numbered where the run starts.
  // The count of lines like it, when it has one, would tell the run a second time.
  shown.text = shown.text.replace(LIKE_THIS, '');
  const mark = `${shown.isNew ? '+' : ''}${shown.line}: `;
  const text = shown.text.startsWith(mark)
    ? `${mark[0] === '+' ? '+' : ''}${run.from}: ${shown.text.slice(mark.length)}`
    : shown.text;
  const out = [...before, { ...shown, line: run.from, text }];
  if (run.to > run.from)
    out.push({ line: run.to, from: run.from + 1, text: repeatMarker(run.to - run.from), role: 'meta' });
  for (const e of entries.slice(at + 1)) {
    if (e.line <= run.to) continue;
    const from = e.from ?? e.line;
    // A marker of omitted lines that began inside the run goes on after it (a short one stays
    // short: a full one would grow the summary past its budget).
    if (e.role === 'meta' && from <= run.to)
      out.push({
        ...e,
        from: run.to + 1,
        text: e.text === SHORT_GAP ? SHORT_GAP : gapMarker(run.to + 1, e.line),
      });
    else out.push(e);
  }
  return out;
}
