import { describe, expect, it } from 'vitest';
import { blockOf, parentOf, parentsOf } from '../../src/summary/blocks.js';
import { cutAround } from '../../src/summary/lines.js';
import { errorWordAt, scoreLine } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';
import { position, verdictLine } from '../../src/summary/worth.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };
const passing = (n: number, from = 0) =>
  Array.from(
    { length: n },
    (_, i) => `   ✓ suite ${['alpha', 'beta', 'gamma'][i % 3]} > case ${from + i} works ${i % 7}ms`,
  );

describe('blocks', () => {
  it("takes the own frame nearest an exception under its frames, not the outermost (a traceback's last call last)", () => {
    const lines = [
      'ERROR: test_update (tests.test_blog.BlogTest.test_update)',
      'Traceback (most recent call last):',
      '  File "/work/app/testing.py", line 102, in __call__',
      '    result = self.orig_method(*args, **kwargs)',
      '  File "/work/app/blog.py", line 104, in update',
      '    db.execute(query, (title, body, id))',
      '  File "/usr/lib/python3.11/sqlite3/dbapi2.py", line 77, in execute',
      "TypeError: 'int' object is not iterable",
    ];
    const block = blockOf(
      (n) => lines[n - 1],
      1,
      () => false,
    );
    expect(block).toContain(5);
    expect(block).not.toContain(3);
    // Frames above their message (most recent call first): the first own frame stays.
    const js = [
      'FAIL test/a.test.js',
      'TypeError: x is not a function',
      '    at f (src/a.js:3:9)',
      '    at g (src/b.js:8:2)',
    ];
    expect(
      blockOf(
        (n) => js[n - 1],
        1,
        () => false,
      ),
    ).toEqual([2, 3]);
  });

  it('brings the first own frame of a block already full of diff lines', () => {
    const lines = [
      '  3) combinations',
      '       should calculate with BigNumbers:',
      '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      '+ actual - expected',
      '',
      '+     252',
      '-     462',
      '      + expected - actual',
      '',
      '      -{"value":"252"}',
      '      +{"value":"462"}',
      '',
      '      at Context.<anonymous> (test/unit/combinations.test.js:15:12)',
      '      at process.processImmediate (node:internal/timers:483:21)',
    ];
    const block = blockOf(
      (n) => lines[n - 1],
      1,
      () => false,
    );
    expect(block).toContain(14);
    // The values come first: the frame is one more line, not one of them.
    expect(block.filter((k) => k < 14).length).toBe(5);
  });

  it('takes no parent across a blank line', () => {
    const lines = ['Received: "x"', '', '⎯⎯⎯ [1/9] ⎯⎯⎯', '', ' FAIL  test/a.test.ts > a > fails'];
    expect(parentOf((n) => lines[n - 1], 5)).toBeUndefined();
    expect(parentOf((n) => ['src/a.js', '  3:1  error  x'][n - 1], 2)).toBe(1);
  });

  it("takes a lone title that names a location across one blank line, and a short paragraph's head", () => {
    const biome = [
      '',
      'lib/a.js:293:32 lint/correctness/useValidTypeof ━━━━',
      '',
      '  × "sting" is not valid.',
    ];
    expect(parentOf((n) => biome[n - 1], 4)).toBe(2);
    // Not a title: it names no place, or it is not alone in its paragraph.
    expect(parentOf((n) => ['', 'Summary of things', '', '  × x'][n - 1], 4)).toBeUndefined();
    expect(parentOf((n) => ['see src/b.js:3:1', 'lib/a.js:2:1 rule', '', '  × x'][n - 1], 4)).toBeUndefined();
    const sh = [
      '',
      'In libexec/run line 41:',
      'while [[ $# > 0 ]]',
      '            ^-- SC2071 (error): > is for strings.',
    ];
    expect(parentsOf((n) => sh[n - 1], 4)).toEqual([2, 3]);
  });

  it("shows a shell linter's finding with the file and line it is in", () => {
    const para = (i: number, file: string, code: string, finding: string) => [
      `In ${file} line ${i}:`,
      code,
      `     ^-- ${finding}`,
      '',
    ];
    const info = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => from + k).flatMap((i) =>
        para(i + 1, `libexec/tool-${i}`, `echo $x${i}`, 'SC2086 (info): Double quote to prevent globbing.'),
      );
    const lines = [
      ...info(0, 60),
      ...para(41, 'libexec/run-local', 'while [[ $# > 0 ]]', 'SC2071 (error): > is for string comparisons.'),
      ...info(60, 120),
    ];
    const out = summarize(lines.join('\n'), { id: 'u', path: 'p', exitCode: 1, durationMs: 1 });
    expect(out).toContain('In libexec/run-local line 41:');
    expect(out).toContain('SC2071 (error)');
  });

  it("shows a failure's message, its values, the line its code frame points at and its location", () => {
    const failure = [
      ' FAIL  test/body.test.ts > body > web > fails if json is invalid (web)',
      "AssertionError: expected 'BadRequest' to be 'Bad Request' // Object.is equality",
      '',
      'Expected: "Bad Request"',
      'Received: "BadRequest"',
      '',
      ' ❯ test/body.test.ts:306:38',
      '    305|     expect(result.status).toBe(400);',
      '  > 306|     expect(resultJson.statusMessage).toBe("Bad Request");',
      '',
    ];
    const text = [...passing(400), ...failure, ...passing(400, 400), ' Tests  1 failed | 799 passed (800)'];
    const out = summarize(text.join('\n'), facts);
    for (const line of failure.filter((l) => l.trim() !== '' && !l.includes('305|')))
      expect(out).toContain(line.trim());
  });
});

describe('exception messages', () => {
  it("reads a qualified exception name as an error and shows the message under a failure's title", () => {
    expect(scoreLine('org.opentest4j.AssertionFailedError: expected: <bar> but was: <=bar>').score).toBe(12);
    expect(scoreLine('requests.exceptions.ConnectionError: HTTPSConnectionPool(host=x)').score).toBe(12);
    const stack = Array.from(
      { length: 40 },
      (_, i) => `\tat org.junit.platform.engine.Node${i}.execute(Node.java:${i + 10})`,
    );
    const text = [
      ...Array.from({ length: 300 }, (_, i) => `[INFO] Running org.example.Suite${i}Test`),
      '[ERROR] testLongWithEqualDoubleDash  Time elapsed: 0.019 s  <<< FAILURE!',
      'org.opentest4j.AssertionFailedError: expected: <bar> but was: <=bar>',
      ...stack,
      ...Array.from({ length: 300 }, (_, i) => `[INFO] Running org.example.Other${i}Test`),
      '[INFO] BUILD FAILURE',
    ].join('\n');
    const out = summarize(text, facts);
    expect(out).toContain('AssertionFailedError: expected: <bar> but was: <=bar>');
  });
});

describe('verdict', () => {
  it('is the tally of both outcomes among failing count lines', () => {
    const lines = [
      ' Test Files  4 failed | 24 passed (28)',
      '      Tests  9 failed | 562 passed (600)',
      '     Errors  12 errors',
    ];
    expect(
      verdictLine(
        lines.map((text, i) => ({ line: i + 1, text })),
        3,
      ),
    ).toBe(2);
  });

  it('is a failing tally at the start when the end has only zero counts (a tool that prints its verdict first)', () => {
    const at = (line: number, text: string) => ({ line, text });
    const start = [at(2, 'Failing scenarios:'), at(20, '460 scenarios passed, 15 failed, 10 skipped')];
    const end = [at(4000, '      1 scenario passed, 0 failed, 0 skipped')];
    expect(verdictLine([...start, ...end], 4001)).toBe(20);
    // A failing tally at the end is the verdict; a passing one at the start never is.
    expect(verdictLine([...start, at(3999, '3 scenarios passed, 1 failed')], 4001)).toBe(3999);
    expect(verdictLine([at(5, '460 scenarios passed, 0 failed'), ...end], 4001)).toBe(4000);
  });

  it('is a failing tally followed by a long report of its failures (7 failures and their stacks, 140 lines)', () => {
    const at = (line: number, text: string) => ({ line, text });
    const frames = Array.from({ length: 137 }, (_, i) =>
      at(1934 + i, `      at Test.assert (node_modules/supertest/lib/test.js:${i + 1}:15)`),
    );
    expect(verdictLine([at(1931, '  1374 passing (4s)'), at(1932, '  7 failing'), ...frames], 2070)).toBe(
      1932,
    );
  });

  it('reads a percentage tally, and not a progress counter, as a count', () => {
    expect(scoreLine('95% tests passed, 1 tests failed out of 22')).toEqual({ kind: 'count', score: 13 });
    expect(scoreLine('22/22 Test #22: misc_utils_tests .........   Passed    0.03 sec').kind).not.toBe(
      'count',
    );
  });
});

describe('assertions and cascades', () => {
  it("reads `got:` as an assertion's value and `Failure/Error:` as an error", () => {
    expect(scoreLine('            got: "http://example.com."')).toEqual({ kind: 'error', score: 6 });
    expect(scoreLine("     Failure/Error: expect(@uri.origin).to eq('x')").score).toBe(12);
  });

  it('gives no worth to a position far from both ends, so that the first of alike errors comes first', () => {
    expect(position(500, 1000, 0.7)).toBe(0);
    expect(position(1000, 1000, 0.7)).toBeGreaterThan(7);
  });
});

describe('a long salient line', () => {
  it('is cut around its first error word when the usual cut would lose it, within the width', () => {
    const line = `{"level":50,"time":1795631394598,"pid":25482,"reqId":"req-11x",${'"x":"y",'.repeat(30)}"err":{"type":"TypeError","message":"Cannot read properties of undefined (reading 'amount')","stack":"${'at f (a.js:1:2)\\n'.repeat(80)}"}`;
    const cut = cutAround(line, 320, errorWordAt(line));
    expect(cut.length).toBeLessThanOrEqual(320);
    expect(cut).toContain(
      `"err":{"type":"TypeError","message":"Cannot read properties of undefined (reading 'amount')"`,
    );
    expect(cut.startsWith('{"level":50,"time":1795631394598,"pid":25482,"reqId":"req-11x"')).toBe(true);
    expect(cutAround('short error', 320, 6)).toBe('short error');
  });
});
