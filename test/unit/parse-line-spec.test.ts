import { describe, expect, it } from 'vitest';
import { CtxwrapError } from '../../src/errors.js';
import { mergeRanges, parseLineSpec } from '../../src/read/parse-line-spec.js';

const INF = Number.POSITIVE_INFINITY;

describe('parseLineSpec', () => {
  it.each([
    [undefined, { kind: 'all' }],
    ['first:100', { kind: 'first', count: 100 }],
    ['last:50', { kind: 'last', count: 50 }],
    [' last:7 ', { kind: 'last', count: 7 }],
    ['1200-1260', { kind: 'ranges', ranges: [{ from: 1200, to: 1260 }] }],
    ['1200-', { kind: 'ranges', ranges: [{ from: 1200, to: INF }] }],
    ['42', { kind: 'ranges', ranges: [{ from: 42, to: 42 }] }],
    [
      '1-20,900-950',
      {
        kind: 'ranges',
        ranges: [
          { from: 1, to: 20 },
          { from: 900, to: 950 },
        ],
      },
    ],
    [
      '900-950,1-20',
      {
        kind: 'ranges',
        ranges: [
          { from: 1, to: 20 },
          { from: 900, to: 950 },
        ],
      },
    ],
    ['3-5,4-6', { kind: 'ranges', ranges: [{ from: 3, to: 6 }] }],
    ['1-2, 3', { kind: 'ranges', ranges: [{ from: 1, to: 3 }] }],
    ['5-5', { kind: 'ranges', ranges: [{ from: 5, to: 5 }] }],
    [
      '10-,3',
      {
        kind: 'ranges',
        ranges: [
          { from: 3, to: 3 },
          { from: 10, to: INF },
        ],
      },
    ],
  ])('%j → %j', (spec, expected) => {
    expect(parseLineSpec(spec)).toEqual(expected);
  });

  it.each([
    ['grep:TS2\\d{3}', 'TS2\\d{3}', '', 'TS2\\d{3}'],
    ['grep:/timeout/i', 'timeout', 'i', '/timeout/i'],
    ['grep:/a,b/gi', 'a,b', 'i', '/a,b/gi'],
    ['grep:/x/msu', 'x', 'su', '/x/msu'],
    ['grep:a,b', 'a,b', '', 'a,b'],
    ['grep:/usr/', 'usr', '', '/usr/'],
    ['grep: spaced ', ' spaced ', '', ' spaced '],
  ])('%j → /%s/%s', (spec, source, flags, shown) => {
    const parsed = parseLineSpec(spec);
    expect(parsed.kind).toBe('grep');
    if (parsed.kind !== 'grep') return;
    expect(parsed.regex.source).toBe(source);
    expect(parsed.regex.flags).toBe(flags);
    expect(parsed.source).toBe(shown);
  });

  it.each([
    ['last:x', "last: takes a whole number of lines (got 'x')"],
    ['first:', "first: takes a whole number of lines (got '')"],
    ['first:0', "first: takes at least 1 line (got '0')"],
    ['5-2', "'5-2' ends before it starts"],
    ['0-3', 'line numbers start at 1'],
    ['0', 'line numbers start at 1'],
    ['', 'the spec is empty'],
    ['1-2,', 'an empty item in the list'],
    ['abc', "'abc' is not a line number or a range"],
    ['head:10', "'head:10' is not a line number or a range"],
    ['-5', "'-5' is not a line number or a range"],
    ['99999999999999999999', "'99999999999999999999' is too large"],
    ['grep:', 'grep: needs a pattern'],
    ['grep:(', 'invalid regular expression: Unterminated group'],
    ['grep:/a[/', 'invalid regular expression: Unterminated character class'],
    ['grep:/x/y', "unsupported flags 'y' (grep:/PATTERN/ takes i, s, u)"],
  ])('%j is refused: %s', (spec, why) => {
    let error: unknown;
    try {
      parseLineSpec(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CtxwrapError);
    const message = (error as CtxwrapError).message;
    expect((error as CtxwrapError).exitCode).toBe(2);
    expect(message).toContain(why);
    expect(message).toContain('accepted: first:N, last:N, A-B, A- (to the end)');
    expect(message).not.toContain('\n');
  });
});

describe('mergeRanges', () => {
  it.each([
    [[], []],
    [
      [
        { from: 1, to: 2 },
        { from: 3, to: 4 },
      ],
      [{ from: 1, to: 4 }],
    ],
    [
      [
        { from: 5, to: INF },
        { from: 1, to: 9 },
      ],
      [{ from: 1, to: INF }],
    ],
    [
      [
        { from: 1, to: 2 },
        { from: 4, to: 4 },
      ],
      [
        { from: 1, to: 2 },
        { from: 4, to: 4 },
      ],
    ],
  ])('%j → %j', (ranges, expected) => {
    expect(mergeRanges(ranges)).toEqual(expected);
  });
});
