import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { grepFile, planGrep } from '../../src/read/grep.js';
import { BlockReader, lastLineOf, lastLinesStart } from '../../src/read/line-reader.js';
import { parseLineSpec } from '../../src/read/parse-line-spec.js';
import { cleanLine } from '../../src/summary/clean.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-grep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function withFile<T>(bytes: Uint8Array, use: (fd: number) => T): T {
  const path = join(dir, `f${files++}`);
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** The lines of a file as `read` numbers them: split on \n, a last line without one counts. */
function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

interface Shown {
  line: number;
  match: boolean;
  text: string;
}

/** What grep must show: each cleaned line tested alone, with context, nothing skipped. */
function reference(bytes: Buffer, regex: RegExp, context: number): { shown: Shown[]; matches: number } {
  const lines = linesOf(bytes).map((l) => l.toString('utf8'));
  const matching = new Set<number>();
  lines.forEach((l, i) => {
    if (regex.test(cleanLine(l))) matching.add(i + 1);
  });
  const shown: Shown[] = [];
  for (let n = 1; n <= lines.length; n++) {
    let near = false;
    for (let m = n - context; m <= n + context && !near; m++) near = matching.has(m);
    if (near) shown.push({ line: n, match: matching.has(n), text: lines[n - 1] as string });
  }
  return { shown, matches: matching.size };
}

const piece = fc.constantFrom(
  'a',
  'b',
  'A',
  'ERR',
  'err',
  ' ',
  'x1',
  'é',
  'É',
  '😀',
  '\x1b[31m',
  '\x1b[0m',
  '\x1b]0;title\x07',
  '\r',
  '\x07',
  '\u009b1m',
  'E\x1b[1mRR',
  '\n',
  '\n',
  '\n',
);
const content = fc.array(piece, { maxLength: 200 }).map((p) => Buffer.from(p.join(''), 'utf8'));
const patterns = fc.constantFrom(
  'grep:ERR',
  'grep:/err/i',
  'grep:/ERRa/i',
  'grep:ab',
  'grep:^a',
  'grep:b$',
  'grep:é',
  'grep:/É/i',
  'grep:a.b',
  'grep:\\d',
  'grep:a|b',
  'grep:a(?=b)',
  'grep:(?<!a)b',
  'grep:x1 ',
  'grep:^$',
  'grep:title',
  'grep:\\^G',
  'grep:😀 ',
);

describe('grepFile', () => {
  it('shows what testing every cleaned line alone would, whatever the block size', () => {
    fc.assert(
      fc.property(
        content,
        patterns,
        fc.nat(3),
        fc.integer({ min: 1, max: 64 }),
        (bytes, spec, context, chunk) => {
          const request = parseLineSpec(spec);
          if (request.kind !== 'grep') throw new Error(spec);
          const shown: Shown[] = [];
          const found = withFile(bytes, (fd) =>
            grepFile(
              fd,
              planGrep(request),
              context,
              (line, buf, start, end, match) => {
                shown.push({ line, match, text: buf.toString('utf8', start, end) });
                return true;
              },
              { chunk },
            ),
          );
          const expected = reference(bytes, request.regex, context);
          expect(shown).toEqual(expected.shown);
          expect(found.matches).toBe(expected.matches);
          expect(found.lines).toBe(linesOf(bytes).length);
          expect(found.firstUnshown).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('stops showing when told, and still counts every match', () => {
    fc.assert(
      fc.property(
        content,
        patterns,
        fc.nat(2),
        fc.nat(6),
        fc.integer({ min: 1, max: 64 }),
        (bytes, spec, context, room, chunk) => {
          const request = parseLineSpec(spec);
          if (request.kind !== 'grep') throw new Error(spec);
          const shown: number[] = [];
          const found = withFile(bytes, (fd) =>
            grepFile(
              fd,
              planGrep(request),
              context,
              (line) => {
                if (shown.length === room) return false;
                shown.push(line);
                return true;
              },
              { chunk },
            ),
          );
          const expected = reference(bytes, request.regex, context);
          expect(shown).toEqual(expected.shown.slice(0, room).map((s) => s.line));
          expect(found.matches).toBe(expected.matches);
          const unshown = expected.shown.find((s, i) => s.match && i >= room);
          expect(found.firstUnshown).toBe(unshown?.line);
        },
      ),
      { numRuns: 1500 },
    );
  }, 60_000);

  it('counts each line once when lines are longer than the reader holds', () => {
    const plainPiece = fc.constantFrom('a', 'b', 'A', 'x', ' ', 'yz', '\n');
    const plain = fc.array(plainPiece, { maxLength: 300 }).map((p) => Buffer.from(p.join('')));
    fc.assert(
      fc.property(
        plain,
        fc.constantFrom('grep:b', 'grep:/a/i', 'grep:x'),
        fc.integer({ min: 1, max: 8 }),
        (bytes, spec, chunk) => {
          const request = parseLineSpec(spec);
          if (request.kind !== 'grep') throw new Error(spec);
          const found = withFile(bytes, (fd) =>
            grepFile(fd, planGrep(request), 0, () => true, { chunk, maxLine: chunk * 2 }),
          );
          expect(found.matches).toBe(reference(bytes, request.regex, 0).matches);
        },
      ),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('counts a line longer than the reader holds once', () => {
    const bytes = Buffer.from(`ERR first\n${'ERR '.repeat(100)}\nlast ERR\n`);
    const shown: number[] = [];
    const found = withFile(bytes, (fd) =>
      grepFile(fd, planGrep(parseLineSpec('grep:ERR') as never), 0, (line) => shown.push(line) > 0, {
        chunk: 16,
        maxLine: 32,
      }),
    );
    expect(found).toEqual({ matches: 3, lines: 3 });
    expect(shown).toEqual([1, 2, 3]);
  });
});

describe('BlockReader', () => {
  it('hands out every byte once, in blocks of whole lines, numbered', () => {
    fc.assert(
      fc.property(content, fc.integer({ min: 1, max: 64 }), (bytes, chunk) => {
        const seen: Buffer[] = [];
        let line = 1;
        let last = 0;
        withFile(bytes, (fd) => {
          const reader = new BlockReader(fd, { chunk });
          for (let block = reader.next(); block; block = reader.next()) {
            expect(block.line).toBe(line);
            const end = block.buf.length;
            expect(block.buf[end - 1] === 10 || block.offset + end === bytes.length).toBe(true);
            seen.push(Buffer.from(block.buf));
            line += block.newlines;
            last = lastLineOf(block);
          }
        });
        expect(Buffer.concat(seen).equals(bytes)).toBe(true);
        expect(last).toBe(linesOf(bytes).length);
      }),
      { numRuns: 1000 },
    );
  }, 60_000);
});

describe('lastLinesStart', () => {
  it('finds where the last n lines start', () => {
    fc.assert(
      fc.property(content, fc.integer({ min: 1, max: 30 }), (bytes, n) => {
        const lines = linesOf(bytes);
        const found = withFile(bytes, (fd) => lastLinesStart(fd, bytes.length, n));
        const want = Math.min(n, lines.length);
        expect(found.lines).toBe(want);
        const tail = linesOf(bytes.subarray(found.offset));
        expect(tail.length).toBe(want);
        expect(Buffer.concat(tail)).toEqual(Buffer.concat(lines.slice(lines.length - want)));
      }),
      { numRuns: 1000 },
    );
  }, 60_000);
});
