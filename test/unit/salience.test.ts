import { describe, expect, it } from 'vitest';
import { buildGuard, hintWords, isLocation, scoreLine, shape, template } from '../../src/summary/salience.js';

describe('scoreLine', () => {
  it.each([
    ["src/a.c:12:5: error: 'x' undeclared", 'error'],
    ['error[E0502]: cannot borrow `x` as mutable', 'error'],
    ['src/x.ts(124,39): error TS2345: Argument of type', 'error'],
    ['  268:47  error    no-undef', 'error'],
    ['[ERROR] Plugin could not be resolved', 'error'],
    ['npm ERR! code ELIFECYCLE', 'error'],
    ['Traceback (most recent call last):', 'error'],
    ['ValueError: invalid literal for int()', 'error'],
    ['    AssertionError [ERR_ASSERTION]: 1 == 2', 'error'],
    ['  Error: connect ECONNREFUSED 127.0.0.1:5432', 'error'],
    ['not ok 3 - parses dates', 'error'],
    ["thread 'main' panicked at src/main.rs:2:5", 'error'],
    ['FAIL  test/base.test.ts > withoutBase', 'error'],
    ['==123== Invalid read of size 4', 'error'],
    ['Tests  1 failed | 484 passed (485)', 'count'],
    ['Found 194 errors in 41 files.', 'count'],
    ['✖ 2015 problems (8 errors, 2007 warnings)', 'count'],
    ['[INFO] BUILD FAILURE', 'count'],
    ['==1== ERROR SUMMARY: 2 errors from 2 contexts', 'count'],
    ['warning: unused variable `x`', 'warning'],
    ['[WARNING] The POM is missing', 'warning'],
    ['  ✕ adds two numbers (3 ms)', 'error'],
    ['  ● math › divides', 'error'],
    ['E       assert 5.0 == 6', 'error'],
    ['--- FAIL: TestParse (0.00s)', 'error'],
    ['SUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/split.c:9 in split', 'error'],
    ['make: *** [Makefile:6: src/m41.o] Error 1', 'error'],
    ['Caused by: java.lang.NumberFormatException: For input string: "80a"', 'error'],
    ['4 upgraded, 102 newly installed, 0 to remove and 102 not upgraded.', 'count'],
    ['added 312 packages, and audited 313 packages in 4s', 'count'],
    ['Tests:       2 failed, 65 passed, 67 total', 'count'],
    ['test result: FAILED. 30 passed; 1 failed; 0 ignored', 'count'],
    ['=================== 2 failed, 58 passed in 3.40s ===================', 'count'],
    [
      'ii  liberror-perl   0.17029-2   all   Perl module for error/exception handling in an OO-ish way',
      'plain',
    ],
    ["src/a.c:2195:68: warning: 2 adjacent parameters of 'f' of similar type are easily swapped", 'warning'],
    ['src/b.c:1154:26: warning: 0xFF is a magic number; consider replacing it', 'warning'],
    ['[ERROR] Tests run: 87, Failures: 7, Errors: 0, Skipped: 2, Time elapsed: 0.165 s', 'count'],
    ['Errors: 0 Skipped: 2', 'count'],
    ['CC obj/file.o', 'plain'],
    ['gcc -Wall -Wfatal-errors -Werror=format -c -o lapi.o lapi.c', 'plain'],
    ['compiling src/errors.c', 'plain'],
    [' ✓ test/parse.test.ts > parseURL > https://domain.test:3000#owo 0ms', 'plain'],
    ['', 'plain'],
  ])('%j is %s', (line, kind) => {
    expect(scoreLine(line).kind).toBe(kind);
  });

  it('ranks errors over warnings over plain lines', () => {
    const s = (l: string) => scoreLine(l).score;
    expect(s('src/a.c:1:1: error: x')).toBeGreaterThan(s('src/a.c:1:1: warning: x'));
    expect(s('src/a.c:1:1: warning: x')).toBeGreaterThan(s('all fine'));
  });

  it('ranks a failing count above a passing one, and debug noise low', () => {
    expect(scoreLine('Tests: 2 failed, 198 passed').score).toBeGreaterThan(
      scoreLine('Tests: 200 passed').score,
    );
    expect(scoreLine('0 errors, 0 warnings').score).toBeLessThan(scoreLine('3 errors').score);
    expect(scoreLine('[DEBUG] error handler registered').score).toBeLessThan(scoreLine('[ERROR] boom').score);
  });

  it("reads a TAP tally with the spaces a runner aligns it with as a count ('# fail  3')", () => {
    expect(scoreLine('# fail  3')).toEqual({ kind: 'count', score: 13 });
    expect(scoreLine('# pass  1042')).toEqual({ kind: 'count', score: 10 });
    expect(scoreLine('# fail  0').score).toBeLessThan(scoreLine('# fail  3').score);
  });

  it("reads a tally behind any one symbol, or none, as a count ('ℹ fail 4', 'ℹ tests 1373')", () => {
    expect(scoreLine('ℹ fail 4')).toEqual({ kind: 'count', score: 13 });
    expect(scoreLine('ℹ tests 1373')).toEqual({ kind: 'count', score: 10 });
    expect(scoreLine('ℹ fail 0').score).toBeLessThan(scoreLine('ℹ fail 4').score);
    // A word and a number that go on are no tally.
    expect(scoreLine('ℹ fail 4 of them later').kind).not.toBe('count');
  });

  it('reads a status word in capitals inside a line as a mark, above an error word in prose', () => {
    const mark = scoreLine('[gw0] [ 55%] FAILED tests/test_more.py::DivideTest::test_basic');
    const prose = scoreLine('      should not raise an error for a valid port');
    expect(mark.score).toBeGreaterThan(prose.score);
    expect(scoreLine("    should have an origin of 'x' (FAILED - 1)").score).toBeGreaterThan(prose.score);
    // A file or flag named so is no mark.
    expect(scoreLine('  see docs/FAILED-builds.md for how to fail over').score).toBe(prose.score);
  });

  it('reads a comma after a count as the end of the number, not a thousands separator', () => {
    // Surefire's per-class line: `1, Failures: 0` is one test run and no failure.
    const passing = scoreLine(
      '[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.3 s - in a.BTest',
    );
    const failing = scoreLine(
      '[ERROR] Tests run: 87, Failures: 7, Errors: 0, Skipped: 2, Time elapsed: 0.1 s <<< FAILURE! - in a.CTest',
    );
    expect(passing.kind).toBe('count');
    expect(passing.score).toBeLessThan(failing.score);
    expect(scoreLine('1,234 failed, 5 passed').score).toBe(failing.score);
  });

  it("reads 'undefined variable', 'undefined name' and their kin as errors, not a bare 'undefined'", () => {
    for (const line of [
      "src/Monolog/Utils.php:71   UndefinedVariable   Avoid using undefined variables such as '$normalize' which will lead to PHP notices.",
      "click/core.py:12:5: F821 undefined name 'echo_via_pager'",
      "undefined local variable or method `foo' for main:Object (NameError)",
    ])
      expect(scoreLine(line).score, line).toBeGreaterThan(0);
    expect(scoreLine('  value: undefined').score).toBe(0);
  });

  it("gives no severity to a tool's advice on how to learn more, only to what went wrong", () => {
    for (const advice of [
      '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.',
      '[ERROR] Re-run Maven using the -X switch to enable full debug logging.',
      '[ERROR] For more information about the errors and possible solutions, please read the following articles:',
      '[ERROR] Please refer to /work/target/surefire-reports for the individual test results.',
      '[ERROR] -> [Help 1]',
      'npm ERR! A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log',
      'For more information about this error, try `rustc --explain E0425`.',
      '> Run with --stacktrace option to get the stack trace.',
    ])
      expect(scoreLine(advice), advice).toEqual({ kind: 'plain', score: 0 });
    for (const error of [
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test (default-test) on project x: There are test failures.',
      'Error: build failed, see the log for more information',
      'npm ERR! code ERESOLVE',
    ])
      expect(scoreLine(error).score, error).toBeGreaterThan(0);
  });

  it('counts command-line hints', () => {
    expect(scoreLine('Setting up inkscape (1.2.2-2)', ['inkscape']).kind).toBe('hint');
    expect(scoreLine('Setting up inkscape (1.2.2-2)').score).toBe(0);
  });

  it('finds every salient line through the guard', () => {
    const matches = (line: string, hints: string[] = []) =>
      new RegExp(buildGuard(hints).source, 'm').test(Buffer.from(line).toString('latin1').toLowerCase());
    for (const line of [
      'error: x',
      'FAIL x',
      'Tests: 3 passed',
      'WARNING: y',
      'Found 3 errors',
      'panicked',
      'E1234 something',
      '✖ 3',
      'not ok 3 - x',
      '✗ x',
      '× y',
      '  ✕ adds two numbers (3 ms)',
      '  ● math › divides',
      'E       assert 5 == 6',
      '--- FAIL: TestParse (0.00s)',
      'SUMMARY: AddressSanitizer: heap-buffer-overflow split.c:9 in split',
      '4 upgraded, 102 newly installed, 0 to remove and 102 not upgraded.',
      'added 312 packages in 4s',
      'make: *** [Makefile:6: src/m41.o] Error 1',
      'Caused by: java.lang.NumberFormatException: For input string: "80a"',
    ]) {
      expect(matches(line), line).toBe(true);
    }
    expect(matches('Setting up Inkscape', ['inkscape'])).toBe(true);
    expect(matches('Setting up Inkscape')).toBe(false);
    expect(matches('a+b', ['+b'])).toBe(true);
  });
});

describe('hintWords', () => {
  it.each([
    [['apt-get', 'install', 'inkscape'], ['inkscape']],
    [['npm', 'test'], []],
    [['cargo', 'build', '--release', '-p', 'regex-syntax'], ['regex-syntax']],
    [['sh', '-c', 'cat "$NEEDLES_FILE"'], []],
  ])('%j → %j', (argv, words) => {
    expect(hintWords(argv)).toEqual(words);
  });
});

describe('template', () => {
  it('masks numbers, paths, hex and quoted names', () => {
    expect(template('src/a.c:12:5: warning: unused variable ‘x’')).toBe(
      template('src/b/c.c:99:1: warning: unused variable ‘y’'),
    );
    expect(template("a.ts(1,2): error TS2345: 'number'")).toBe(template("b.ts(3,4): error TS2345: 'string'"));
    expect(template('a.ts(1,2): error TS2345: x')).not.toBe(template('a.ts(1,2): error TS2322: x'));
    expect(template('at 0x1095A1: main')).toBe(template('at 0xDEAD: main'));
    expect(template('commit 5298392c5ab452706b71a992b17e2a1bb2addde3')).toBe(
      template('commit 0123456789abcdef'),
    );
  });

  it('gives runs of one kind one shape', () => {
    expect(shape('Setting up libfoo (1.2) ...')).toBe(shape('Setting up libbar (3.4-1) ...'));
    expect(shape('Setting up libfoo (1.2) ...')).not.toBe(shape('Unpacking libfoo (1.2) ...'));
  });
});

it.each([
  ['  --> src/literals.rs:438:9', true],
  ['    at 0x1095A1: main (wordfreq.c:59)', true],
  ['  ❯ test/base.test.ts:69:44', true],
  ['  File "app.py", line 12, in main', true],
  ['CMake Error at CMakeLists.txt:1309 (find_package):', true],
  ['just words here', false],
])('isLocation(%j) is %s', (line, expected) => {
  expect(isLocation(line)).toBe(expected);
});
