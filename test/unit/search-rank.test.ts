import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/format.js';
import { oneLine, showLine } from '../../src/search/format.js';
import { lineMatcher, rankWindows } from '../../src/search/rank.js';
import { chooseWords, literalsOf, withinOneEdit } from '../../src/search/resolve.js';
import { queryTerms } from '../../src/search/tokenize.js';

describe('withinOneEdit', () => {
  it.each([
    ['connection', 'connection', true],
    ['conection', 'connection', true],
    ['connectoin', 'connection', true],
    ['connectiom', 'connection', true],
    ['connections', 'connection', true],
    ['refusal', 'refused', false],
    ['timeout', 'timeouts', true],
    ['abc', 'xyz', false],
    ['e0502', 'e0503', true],
  ])('%s ~ %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});

describe('chooseWords', () => {
  it.each([
    ['cors/index.ts', ['cors/index.ts'], ['cors/index.ts'], [], [['cors/index.ts']]],
    ['cors/index.ts', ['cors', 'index.ts'], ['cors', 'index.ts'], [], [['cors'], ['index.ts']]],
    ['cors/index.ts', ['cors', 'index', 'ts'], ['cors', 'index', 'ts'], [], [['cors'], ['index', 'ts']]],
    // The parts of a joined word count only all together.
    ['fooBar baz', ['foo'], [], ['foobar', 'baz'], []],
    ['tail-ratio', ['tail', 'ratio'], ['tail', 'ratio'], [], [['tail', 'ratio']]],
    ['vitest@4.1.12', ['vitest', '4.1.12'], ['vitest', '4.1.12'], [], [['vitest'], ['4.1.12']]],
  ])('%s with %j found', (query, found, words, absent, groups) => {
    const terms = queryTerms(query);
    expect(literalsOf(terms)).toEqual(expect.arrayContaining(found));
    const chosen = chooseWords(terms, (t) => found.includes(t));
    expect({ words: chosen.words, absent: chosen.absent }).toEqual({ words, absent });
    expect(chosen.groups.map((g) => g.words)).toEqual(groups);
  });
});

describe('rankWindows', () => {
  const docs = [
    { id: 0, lines: ['error: connection refused by postgres'] },
    { id: 1, lines: ['warn: connection slow', 'error: disk full'] },
    { id: 2, lines: ['all good here'] },
    { id: 3, lines: ['connect ECONNREFUSED 10.0.0.1'] },
  ];
  const store = { windows: 10_000, bytes: 1_000_000 };
  it('ranks the window with every word first, and a rare word above a common one', () => {
    const ranked = rankWindows(
      docs,
      [
        { label: 'connection', df: 5000 },
        { label: 'postgres', df: 3 },
      ],
      store,
    ).sort((a, b) => b.score - a.score);
    expect(ranked.map((r) => r.id)).toEqual([0, 1]);
    expect(ranked[0]!.mask).toBe(3);
  });
  it('scores a word found inside a token, and only near spellings given for a typo', () => {
    const inside = rankWindows(docs, [{ label: 'refused', df: 2 }], store);
    expect(inside.map((r) => r.id).sort()).toEqual([0, 3]);
    const exact = inside.find((r) => r.id === 0)!;
    expect(exact.score).toBeGreaterThan(inside.find((r) => r.id === 3)!.score);
    const typo = rankWindows(docs, [{ label: 'conection', df: 1, near: new Set(['connection']) }], store);
    expect(typo.map((r) => r.id).sort()).toEqual([0, 1]);
  });
  it('scores a window by its best line: repeating a word on other lines, or context, adds nothing', () => {
    const ranked = rankWindows(
      [
        { id: 0, lines: ['a: warning: possible null pointer dereference', 'x = 1;', 'y = 2;'] },
        {
          id: 1,
          lines: ['b: warning: possible null pointer dereference', 'b: note: null pointer dereference'],
        },
      ],
      ['possible', 'null', 'pointer', 'dereference'].map((label) => ({ label, df: 40 })),
      store,
    );
    expect(ranked.map((r) => r.score)).toEqual([ranked[0]!.score, ranked[0]!.score]);
  });
  it('ranks a word matching a token whole above one matching a part of a token', () => {
    const ranked = rankWindows(
      [
        { id: 0, lines: ['Setting up phpunit-diff (4.0.4-2) ...'] },
        { id: 1, lines: ['Setting up phpunit (9.6.7-1+deb12u1) ...'] },
      ],
      ['setting', 'up', 'phpunit'].map((label) => ({ label, df: 40 })),
      store,
    ).sort((a, b) => b.score - a.score);
    expect(ranked.map((r) => r.id)).toEqual([1, 0]);
  });
  it('names the lines a hit is shown around: its best line, and a line for each word not on it', () => {
    const [r] = rankWindows(
      [
        {
          id: 0,
          lines: [
            'commit 5298392c5ab452706b71a992b17e2a1bb2addde3',
            'Author: someone',
            '    bug: GC step could loop forever',
            '    more text about the step',
          ],
        },
      ],
      ['5298392c5ab452706b71a992b17e2a1bb2addde3', 'gc', 'step', 'loop'].map((label) => ({ label, df: 5 })),
      store,
    );
    expect(r!.focus.sort()).toEqual([0, 2]);
  });
  it('tells a line holding no query word at once, and a word inside a token (ECONNREFUSED) by its marker', () => {
    const match = lineMatcher([{ label: 'refused', df: 2 }]);
    expect(match('all good here').q).toEqual([0]);
    const inside = match('connect ECONNREFUSED 10.0.0.1');
    expect(inside.q).toEqual([1]);
    expect(inside.terms).toEqual(['~refused']);
    expect(match('connection refused').q).toEqual([1]);
  });
  it('uses the global statistics: the same documents score higher for a rarer word', () => {
    const rare = rankWindows(docs, [{ label: 'error', df: 2 }], store);
    const common = rankWindows(docs, [{ label: 'error', df: 9000 }], store);
    expect(rare[0]!.score).toBeGreaterThan(3 * common[0]!.score);
  });
});

describe('printing helpers', () => {
  it.each([
    ['short lines stay', { text: 'abc' }, ['b'], 20, /^abc$/],
    [
      'a match far in is kept in view, with marks',
      { text: `${'x'.repeat(300)}NEEDLE${'y'.repeat(300)}` },
      ['needle'],
      100,
      /^…\[2\d\d bytes cut\]…x+NEEDLEy+…\[\d+ bytes cut\]…$/,
    ],
    [
      'a piece of a longer line counts the bytes not read',
      { text: 'aaaa NEEDLE bbbb', before: 5000, after: 7000 },
      ['needle'],
      100,
      /^…\[5,000 bytes cut\]…aaaa NEEDLE bbbb…\[7,000 bytes cut\]…$/,
    ],
    [
      'a context line read from its end shows its end',
      { text: `${'a'.repeat(300)}END`, before: 10 },
      ['zz'],
      100,
      /^…\[\d+ bytes cut\]…a+END$/,
    ],
  ])('showLine: %s', (_, line, tokens, cap, shown) => {
    const cut = showLine(line, tokens, cap);
    expect(cut).toMatch(shown);
    expect(cut.length).toBeLessThanOrEqual(cap + 2);
  });

  it.each([
    ['two\nlines', 'two lines'],
    ['\x1b[31mred\x1b[0m', 'red'],
    ['tab\there', 'tab\there'],
  ])('oneLine(%j)', (text, line) => {
    expect(oneLine(text)).toBe(line);
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [1234567, '1,234,567'],
  ])('formatCount(%d)', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});
