import { describe, expect, it } from 'vitest';
import { checksOf } from '../../src/summary/checks.js';
import { namesakes } from '../../src/summary/namesakes.js';
import { scoreLine } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

const numbered = (texts: string[]) => texts.map((text, i) => ({ line: i + 1, text }));

describe('namesakes: a failure named in one place, explained in another', () => {
  it("links a test protocol's `#   Failed test 'x'` (before it) to `not ok 11 - x`", () => {
    const lines = numbered([
      'ok 10 - the query string round-trips',
      "#   Failed test 'stringification keeps the ampersand'",
      '#   at t/query.t line 68.',
      "#          got: 'a=1&b'",
      "#     expected: 'a=1%26b'",
      'not ok 11 - stringification keeps the ampersand',
      'ok 12 - the fragment round-trips',
    ]);
    expect([...namesakes(lines, false)]).toEqual([2]);
  });

  it('links the title of a report framed by rules that names a failing check (`---- x stdout ----`)', () => {
    const lines = numbered([
      'test src/lib.rs - Itertools::multiunzip (line 3454) ... ok',
      'test src/lib.rs - Itertools::pad_using (line 1602) ... FAILED',
      'test src/lib.rs - Itertools::positions (line 1810) ... ok',
      '---- src/lib.rs - Itertools::pad_using (line 1602) stdout ----',
      'Test executable failed (exit status: 101).',
      '---- Captured stdout setup ----',
      'failures:',
      '    src/lib.rs - Itertools::pad_using (line 1602)',
    ]);
    // A framed line that names no failing check is a section's title, no failure's.
    expect([...namesakes(lines, false)]).toEqual([4]);
  });

  it('links a location that names a failing test id (`tests/x.py:706: in test_change`)', () => {
    const lines = numbered([
      'tests/test_funcs.py::TestEvolve::test_change FAILED                      [ 25%]',
      'tests/test_funcs.py::TestEvolve::test_unknown PASSED                     [ 25%]',
      'tests/test_funcs.py:706: in test_change',
      'E       TypeError: HypClass.__init__() got an unexpected keyword argument',
      'FAILED tests/test_funcs.py::TestEvolve::test_change - TypeError: HypClass',
    ]);
    expect([...namesakes(lines, false)]).toEqual([3]);
  });

  it("links a failure report's title, the failing check's name alone, after a symbol's mark (`✘ [fail]: x`)", () => {
    const lines = numbered([
      '  ✔ parse › handles an empty string',
      '  ✘ [fail]: parse › keeps a single bracketed value as an array',
      '  ✔ parse › handles a plain value',
      '',
      '  parse › keeps a single bracketed value as an array',
      '',
      '  test/parse.js:214',
      '',
      '  Difference (- actual, + expected):',
      "  -   foo: 'bar',",
      '  › file://test/parse.js:214:4',
    ]);
    expect([...namesakes(lines, false)]).toEqual([5]);
  });

  it('links no line that merely holds the name among other words, when it says nothing', () => {
    const lines = numbered([
      '  ✘ [fail]: parse › keeps a single bracketed value as an array',
      '  retrying parse › keeps a single bracketed value as an array later',
      '  ✔ parse › handles a plain value',
    ]);
    expect(namesakes(lines, false).size).toBe(0);
  });

  it('links no title that opens no report: a step listed again in a script', () => {
    const lines = numbered([
      '      Background: B1',
      '        Given a background step passes',
      '        And a background step fails',
      '        And another background step passes',
      '',
      '      Scenario: S1',
      '        And a background step fails ... failed',
    ]);
    expect(namesakes(lines, false).size).toBe(0);
  });

  it('links nothing by a file path a failing build step names, nor by a value that reads as a mark', () => {
    const lines = numbered([
      'FAILED: test/options_test.p/options.cpp.o',
      'In file included from ../test/options.cpp:6:',
      '      logging_level = ERROR',
      '      logging_level: the level of the logging_level hook',
    ]);
    expect(namesakes(lines, false).size).toBe(0);
  });

  it('links no prose that merely mentions the name, nor a passing check', () => {
    const lines = numbered([
      'not ok 3 - parse_header rejects a bare key',
      '# parse_header is called by every reader',
      'ok 4 - parse_header accepts a quoted key',
    ]);
    expect(namesakes(lines, false).size).toBe(0);
  });
});

describe('an expected failure (a `not ok … # TODO`) is no failure', () => {
  it('scores as no error, and is no failing check among passing ones', () => {
    const todo = 'not ok 26 # TODO some chars need to stay escaped';
    expect(scoreLine(todo).score).toBe(0);
    expect(scoreLine('not ok 27 - real failure').kind).toBe('error');
    const checks = checksOf([...Array.from({ length: 8 }, (_, i) => `ok ${i + 1} - fine ${i}`), todo]);
    expect(checks.failing(todo)).toBe(false);
    expect(checks.failing('not ok 9 - broken')).toBe(true);
  });
});

/**
 * A verbose TAP run: hundreds of passing checks, expected failures (`# TODO`), and six real
 * failures whose diagnostics (`#   Failed test 'x'`, got, expected) come before their `not ok`,
 * with passing checks between, as a harness that prints stderr first shows them.
 */
function tapRun(): string {
  const out: string[] = [];
  for (let f = 0; f < 24; f++) {
    out.push(`t/f${f}.t .. `);
    const failing = f % 4 === 1 ? `roundtrip_${f} keeps the ampersand` : undefined;
    if (failing)
      out.push(
        `#   Failed test '${failing}'`,
        `#   at t/f${f}.t line ${60 + f}.`,
        `#          got: 'mailto:a@b?x=${f}&'`,
        `#     expected: 'mailto:a@b?x=${f}%26'`,
      );
    for (let i = 1; i <= 40; i++) {
      if (i === 20 && failing) out.push(`not ok ${i} - ${failing}`);
      else if (i === 7 && f % 3 === 0)
        out.push(`not ok ${i} # TODO wide characters ${f} are not handled yet`);
      else out.push(`ok ${i} - check_${f}_${i} of the parser works`);
    }
    out.push('1..40', failing ? 'Failed 1/40 subtests' : 'ok');
  }
  out.push('', 'Test Summary Report', '-------------------');
  for (let f = 1; f < 24; f += 4)
    out.push(`t/f${f}.t (Wstat: 256 Tests: 40 Failed: 1)`, '  Failed test:  20');
  out.push('Files=24, Tests=960,  2 wallclock secs', 'Result: FAIL');
  return out.join('\n');
}

describe('a summary of a run whose failures are explained before they are named', () => {
  it("shows the failures' `Failed test` lines with their expected values", () => {
    const summary = summarize(tapRun(), facts);
    const shown = (re: RegExp) => summary.split('\n').filter((l) => re.test(l)).length;
    expect(shown(/# {3}Failed test 'roundtrip_/)).toBeGreaterThanOrEqual(4);
    expect(shown(/# {5}expected: 'mailto/)).toBeGreaterThanOrEqual(4);
  });
});
