// A query of one word chooses its candidate windows from the newest outputs only (one-word.ts):
// the same windows, in the same order, with the same anchors, as the general choice over every
// window (a word given twice: every window holds both, so every key is alike, as with one word).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickCandidates } from '../../src/search/candidates.js';
import { BLOCK, type Scanned } from '../../src/search/scan.js';
import type { Source } from '../../src/search/types.js';

interface Shape {
  startedMs: number;
  binary: boolean;
  /** Lines holding the word, and which of them the scan kept. */
  lines: { line: number; kept: boolean }[];
  /** Found binary when its content is looked at. */
  binaryAtPick: boolean;
}

function sourceOf(shape: Shape): Source {
  const lines = [...new Map(shape.lines.map((l) => [l.line, l])).values()].sort((a, b) => a.line - b.line);
  // A line is in the window starting at its block and in the one before.
  const windows = new Set<number>();
  for (const { line } of lines) {
    const b = Math.floor((line - 1) / BLOCK);
    if (b > 0) windows.add(b - 1);
    windows.add(b);
  }
  const scan: Scanned = {
    binary: shape.binary,
    matches: lines.filter((l) => l.kept).map((l) => ({ word: 0, offset: l.line * 100, line: l.line })),
    windows: [[...windows].sort((a, b) => a - b)],
    bytes: 0,
  };
  return { entry: { startedMs: shape.startedMs } as Source['entry'], path: '', scan, noteMask: 0 };
}

const shape = fc.record({
  startedMs: fc.integer({ min: 0, max: 3 }),
  binary: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  lines: fc.array(fc.record({ line: fc.integer({ min: 1, max: 300 }), kept: fc.boolean() }), {
    maxLength: 60,
  }),
  binaryAtPick: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

function pick(shapes: Shape[], column: number[], k: number) {
  const sources = shapes.map(sourceOf);
  const binaryAt = (i: number) => {
    const s = sources[i]!;
    if (s.scan.binary || !shapes[i]!.binaryAtPick) return false;
    s.scan.binary = true;
    return true;
  };
  const { candidates, matched } = pickCandidates(
    sources,
    column,
    column.map(() => 1.5),
    k,
    binaryAt,
  );
  return {
    candidates: candidates.map((c) => ({
      src: c.src,
      window: c.window,
      anchors: c.anchors.map((a) => a.line),
    })),
    matched: [...matched].map(([src, m]) => [src, m.windows]),
  };
}

describe('candidates of a query of one word', () => {
  it('are those the general choice makes', () => {
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        (shapes, k) => {
          expect(pick(shapes, [0], k)).toEqual(pick(shapes, [0, 0], k));
        },
      ),
      { numRuns: 500 },
    );
  });
});
