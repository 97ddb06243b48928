import { describe, expect, it } from 'vitest';
import { type Entry, repeatMarker, SHORT_GAP, size } from '../../src/summary/assemble.js';
import { Collector } from '../../src/summary/collector.js';
import { joinEndRun } from '../../src/summary/end-run.js';
import { summarize } from '../../src/summary/summarize.js';

const lines = (text: string, n: number) => `${text}\n`.repeat(n);
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
const R = 'retrying: connection refused';

describe('a run of identical lines the tail starts in (issue 20)', () => {
  it('is told from its first line, not as the copies the tail held after an omitted gap', () => {
    const out = summarize(`${numbers(20_000)}${lines(R, 200_000)}`);
    expect(out).toContain(`[ctxwrap: 19,996 lines omitted, 5-20000]\n${R}\n`);
    expect(out).toContain('[ctxwrap: previous line repeated 199,999 more times]');
    expect(out).not.toMatch(/omitted, 5-2[0-9]{5}\]/);
  });

  it('is told from its first line when other lines follow it (the run the tail starts in)', () => {
    const out = summarize(`${numbers(20_000)}${lines(R, 200_000)}gave up\n`, { exitCode: 1 });
    expect(out).toContain(
      `[ctxwrap: 19,996 lines omitted, 5-20000]\n${R}\n[ctxwrap: previous line repeated 199,999 more times]\ngave up\n`,
    );
  });

  it('carries the number of its first line when it is shown between two gaps', () => {
    const out = summarize(`${numbers(20_000)}${lines('y', 500_000)}error: a\n${numbers(6_000)}`, {
      exitCode: 1,
    });
    expect(out).toMatch(
      /-20000\]\n20001: y\n\[ctxwrap: previous line repeated 499,999 more times\]\n520001: error: a\n/,
    );
  });

  it('is told once when its line is also shown with a count of lines like it', () => {
    const out = summarize(`${numbers(20_000)}${lines('err: disk full', 300_000)}end\n`, { exitCode: 1 });
    expect(out).toMatch(
      /5-20000\]\n(?:20001: )?err: disk full\n\[ctxwrap: previous line repeated 299,999 more times\]\nend\n/,
    );
    expect(out).not.toContain('similar');
  });

  it('at the start, is told whole when omitted lines follow it', () => {
    const out = summarize(`${lines('x', 300_000)}${numbers(20_000)}end\n`);
    expect(out).toMatch(
      /^x\n\[ctxwrap: previous line repeated 299,999 more times\]\n\[ctxwrap: [\d,]+ lines omitted, 300001-/m,
    );
  });

  it('is found the same however the bytes were split, on outputs larger than every buffer', () => {
    const bytes = Buffer.from(`${numbers(3_000)}${lines(R, 150_000)}${R}.\n${lines('x', 3)}`);
    const runsOf = (size: number) => {
      const c = new Collector({ keepBytes: 65536 });
      for (let at = 0; at < bytes.length; at += size) c.push(bytes.subarray(at, at + size));
      return c.end().endRuns;
    };
    const want = [
      { from: 3_001, to: 153_000 },
      { from: 153_002, to: 153_004 },
    ];
    for (const size of [bytes.length, 7, 4096, 65_536, 1 << 20]) expect(runsOf(size)).toEqual(want);
  });

  it('does not take a longer line that ends with the same bytes for a copy', () => {
    const c = new Collector({ keepBytes: 65536 });
    c.push(Buffer.from(`start\nxab\n${lines('ab', 5)}`));
    expect(c.end().endRuns).toEqual([{ from: 3, to: 7 }]);
  });
});

describe('runs of empty lines', () => {
  it('are followed when a piece is one empty line (a negative offset once made it loop for ever)', () => {
    const c = new Collector({ keepBytes: 65536 });
    for (const part of ['a\n', '\n', '\n', '\n', 'b\n', '\n']) c.push(Buffer.from(part));
    expect(c.end().endRuns).toBeUndefined();
    const d = new Collector({ keepBytes: 65536 });
    for (const part of ['a\n', 'b\n', '\n', '\n', '\n']) d.push(Buffer.from(part));
    expect(d.end().endRuns).toEqual([{ from: 3, to: 5 }]);
  });
});

describe('a short gap that began inside the run', () => {
  it('stays short when the run is told from its first line: the summary never grows', () => {
    // A rerun's summary (a line is new: all are numbered) whose head is a long run, as joinRun
    // leaves it: its first line, a repeat marker, then a short gap reaching past the run.
    const entries: Entry[] = [
      { line: 1, text: '1: x', role: 'output' },
      { line: 164, from: 2, text: repeatMarker(163), role: 'meta' },
      { line: 999, from: 165, text: SHORT_GAP, role: 'meta' },
      { line: 1000, text: '+1000: error: new', role: 'new', isNew: true },
    ];
    const out = joinEndRun(entries, [{ from: 1, to: 500 }]);
    expect(out.map((e) => e.text)).toEqual(['1: x', repeatMarker(499), SHORT_GAP, '+1000: error: new']);
    expect(size(out)).toBeLessThanOrEqual(size(entries));
  });
});
