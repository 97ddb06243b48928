import { describe, expect, it } from 'vitest';
import { CONTEXT, forEachLine, MAX_SNIPPET_LINES, snippetRange } from '../../src/search/chunk.js';

describe('snippetRange', () => {
  it.each([
    ['context around one line', [50], 100, { first: 50 - CONTEXT, last: 50 + CONTEXT }],
    ['from the first to the last match', [40, 44], 100, { first: 40 - CONTEXT, last: 44 + CONTEXT }],
    ['clamped at the start', [1], 100, { first: 1, last: 1 + CONTEXT }],
    ['clamped at the end', [99], 100, { first: 99 - CONTEXT, last: 100 }],
    [
      'at most MAX_SNIPPET_LINES',
      [10, 40],
      100,
      { first: 10 - CONTEXT, last: 10 - CONTEXT + MAX_SNIPPET_LINES - 1 },
    ],
  ])('%s', (_, matching, total, range) => {
    expect(snippetRange(matching, total)).toEqual(range);
  });
});

describe('forEachLine', () => {
  const split = (text: string) => {
    const buf = Buffer.from(text);
    const out: string[] = [];
    forEachLine(buf, 0, buf.length, (s, e) => out.push(buf.toString('utf8', s, e)));
    return out;
  };
  it.each([
    ['a\nb\n', ['a', 'b']],
    ['a\nb', ['a', 'b']],
    ['\n\n', ['', '']],
    ['', []],
    ['one line, no newline', ['one line, no newline']],
  ])('%j', (text, lines) => {
    expect(split(text)).toEqual(lines);
  });
});
