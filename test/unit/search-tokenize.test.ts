import { describe, expect, it } from 'vitest';
import { queryTerms, tokensOf } from '../../src/search/tokenize.js';

describe('tokensOf', () => {
  it.each([
    [
      'plain words, lowercased',
      'Connection REFUSED by Postgres',
      ['connection', 'refused', 'by', 'postgres'],
    ],
    ['error codes stay whole', 'error TS2345 and E404', ['error', 'ts2345', 'and', 'e404']],
    [
      'a path whole, by segment and by word',
      '--> src/literals.rs:438:9',
      ['src/literals.rs:438:9', 'src', 'literals.rs', 'literals', 'rs', '438'],
    ],
    [
      'brackets and quotes split',
      'error[E0502]: cannot borrow `self.lits`',
      ['error', 'e0502', 'cannot', 'borrow', 'self.lits', 'self', 'lits'],
    ],
    [
      'a hex id stays whole',
      'commit 5298392c5ab452706b71a992b17e2a1bb2addde3',
      ['commit', '5298392c5ab452706b71a992b17e2a1bb2addde3'],
    ],
    [
      'dotted names by their parts',
      'com.thealgorithms.maths',
      ['com.thealgorithms.maths', 'com', 'thealgorithms', 'maths'],
    ],
    [
      'camelCase humps',
      'FastInverseSqrt XMLHttpRequest',
      ['fastinversesqrt', 'fast', 'inverse', 'sqrt', 'xmlhttprequest', 'xml', 'http', 'request'],
    ],
    ['snake_case', 'cast_voidp', ['cast_voidp', 'cast', 'voidp']],
    [
      'digit groups with commas',
      'definitely lost: 2,645,372 bytes',
      ['definitely', 'lost', '2,645,372', '645', '372', 'bytes'],
    ],
    ['joiners trimmed at the ends', '...done. -Wcast-qual', ['done', 'wcast-qual', 'wcast', 'qual']],
    [
      'typographic quotes split',
      'lobject.c:431:37: ‘buf’ undeclared',
      ['lobject.c:431:37', 'lobject.c', 'lobject', '431', '37', 'buf', 'undeclared'],
    ],
    ['non-ASCII letters are letters', 'Grüße naïve — 東京', ['grüße', 'naïve', '東京']],
    ['single characters are dropped', 'a b c x1', ['x1']],
    ['tokens are cut to 64 characters', 'a'.repeat(80), ['a'.repeat(64)]],
    ['nothing in punctuation', '*** --- ||| ...', []],
  ])('%s', (_, line, tokens) => {
    expect(tokensOf(line)).toEqual(tokens);
  });
});

describe('tokensOf: terms as agents type them', () => {
  it.each([
    ['pkg@version by its halves', '├─┬ vitest@4.1.12', ['vitest@4.1.12', 'vitest', '4.1.12']],
    ['a scoped pkg@version', '@vitest/expect@4.1.12 deduped', ['vitest', 'expect', '4.1.12']],
    [
      'a camelCase word inside a dotted name, whole',
      'Modules/FindOpenSSL.cmake',
      ['findopenssl', 'find', 'open', 'ssl'],
    ],
    ['a JSON key', '"4.1.12": "2026-10-15T09:00:00.000Z",', ['4.1.12', '2026-10-15t09', '2026']],
  ])('%s', (_, line, tokens) => {
    expect(tokensOf(line)).toEqual(expect.arrayContaining(tokens));
  });
});

describe('queryTerms', () => {
  it.each([
    ['one word', 'Timeout', [{ token: 'timeout', parts: [] }]],
    ['duplicates once', 'foo Foo foo', [{ token: 'foo', parts: [] }]],
    [
      'a path falls back on its segments',
      'cors/index.ts',
      [
        {
          token: 'cors/index.ts',
          parts: [
            { token: 'cors', parts: [] },
            {
              token: 'index.ts',
              parts: [
                { token: 'index', parts: [] },
                { token: 'ts', parts: [] },
              ],
            },
          ],
        },
      ],
    ],
    [
      'camelCase falls back on its words',
      'withoutBase',
      [
        {
          token: 'withoutbase',
          typed: 'withoutBase',
          parts: [
            { token: 'without', parts: [] },
            { token: 'base', parts: [] },
          ],
        },
      ],
    ],
    ['no words', '!! ?', []],
  ])('%s', (_, query, terms) => {
    expect(queryTerms(query)).toEqual(terms);
  });
});
