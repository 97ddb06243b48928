import { describe, expect, it } from 'vitest';
import { blockOf, introducer, parentsOf } from '../../src/summary/blocks.js';
import { repeatedFrames } from '../../src/summary/frames.js';
import { untagged } from '../../src/summary/tags.js';
import { isOwnLocation } from '../../src/summary/worth.js';

const none = () => false;

describe("a block read after a tool's tag", () => {
  const tagged = [
    'internal-test:',
    '    [junit] Testsuite: org.example.AppTest',
    '    [junit] ',
    '    [junit] Testcase: testAnt took 0.006 sec',
    '    [junit] Testcase: testLs took 0.008 sec',
    '    [junit] \tFAILED',
    '    [junit] Unexpected exception:Unrecognized option: --block-size',
    '    [junit] junit.framework.AssertionFailedError: Unexpected exception:Unrecognized option: --block-size',
    '    [junit] \tat org.example.AppTest.testLs(AppTest.java:76)',
    '    [junit] \tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
    '    [junit] ',
    '    [junit] Test org.example.AppTest FAILED',
  ];
  const at = (n: number) => tagged[n - 1];

  it('finds the test a failure is under, not the build target above every tagged line', () => {
    expect(parentsOf(at, 6)).toEqual([1]);
    expect(parentsOf(untagged(at, 6), 6)).toEqual([4, 5]);
  });

  it("takes the exception's message on the second line under the failure, and the own frame", () => {
    expect(blockOf(untagged(at, 6), 6, none)).toEqual([8, 9]);
  });

  it('reads untagged lines, and lines of another tag, as they are', () => {
    const view = untagged(at, 6);
    expect(view(1)).toBe('internal-test:');
    expect(view(6)).toBe('\tFAILED');
    const mixed = ['[INFO] a', '[junit] b'];
    expect(untagged((n) => mixed[n - 1], 2)(1)).toBe('[INFO] a');
    expect(untagged((n) => mixed[n - 1], 2)(2)).toBe('b');
  });
});

describe('a numbered failure', () => {
  it('ends its block at the next failure of the list', () => {
    const list = [
      "  1) URI when parsed should have an origin of 'http://example.com'",
      "     Failure/Error: expect(uri.origin).to eq('http://example.com')",
      '',
      '       expected: "http://example.com"',
      '            got: "http://example.com."',
      '',
      '     # ./spec/uri_spec.rb:2424:in `block (2 levels)`',
      '',
      "  2) URI when parsed should have an origin of 'http://example.com'",
      '',
      '       expected: "http://example.com"',
      '            got: "http://EXAMPLE.COM"',
    ];
    expect(blockOf((n) => list[n - 1], 1, none)).toEqual([4, 5, 7]);
  });
});

describe("a test framework's frames", () => {
  it("are not the project's own", () => {
    expect(
      isOwnLocation(
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
      ),
    ).toBe(false);
    expect(isOwnLocation('\tat junit.framework.Assert.fail(Assert.java:57)')).toBe(false);
    expect(
      isOwnLocation('  File "/usr/local/lib/python3.12/unittest/case.py", line 58, in testPartExecutor'),
    ).toBe(false);
    expect(isOwnLocation('\tat org.apache.commons.cli.ParserTest.testLong(ParserTest.java:203)')).toBe(true);
  });
});

describe("a stack's own frame", () => {
  it("is the test's, not a helper's that every stack passes through", () => {
    const out = [
      '15) Lexer hr hr',
      '  Message:',
      '    Expected $[0] not to have properties',
      '  Stack:',
      '        at <Jasmine>',
      '        at expectTokens (file:///work/test/unit/Lexer-spec.js:9:18)',
      '        at UserContext.<anonymous> (file:///work/test/unit/Lexer-spec.js:354:7)',
      '        at <Jasmine>',
      '',
      '16) Lexer headings depth',
      '  Stack:',
      '        at expectTokens (file:///work/test/unit/Lexer-spec.js:9:18)',
      '        at UserContext.<anonymous> (file:///work/test/unit/Lexer-spec.js:410:7)',
    ];
    const at = (n: number) => out[n - 1];
    const helper = repeatedFrames(out);
    // (`Message:` brings the message under it, see summary-block-labels.test.ts.)
    expect(blockOf(at, 1, none, helper)).toEqual([2, 3, 7]);
    expect(blockOf(at, 10, none, helper)).toEqual([13]);
    // A frame seen once is the test's own: the first stays.
    expect(blockOf(at, 1, none, repeatedFrames(out.slice(0, 9)))).toEqual([2, 3, 6]);
  });

  it('comes with the exception the traceback ends on', () => {
    const tb = [
      '    Traceback (most recent call last):',
      '      File "/work/app/test/auth_test.py", line 73, in get',
      '        self.finish(user)',
      '      File "/work/app/web.py", line 846, in write',
      '        chunk = utf8(chunk)',
      "    TypeError: Expected bytes, unicode, or None; got <class 'dict'>",
    ];
    expect(blockOf((n) => tb[n - 1], 1, none)).toEqual([4, 6]);
    // One own frame: it, and the message.
    const one = [tb[0], tb[3], tb[4], tb[5]] as string[];
    expect(blockOf((n) => one[n - 1], 1, none)).toEqual([2, 4]);
  });
});

describe("a log's prefix", () => {
  it("is read past: the DETAIL and STATEMENT under a log's ERROR are its block", () => {
    const log = [
      '2026-11-26 09:26:46.948 UTC [20443] app@db ERROR:  new row violates check constraint "floor"',
      '2026-11-26 09:26:46.948 UTC [20443] app@db DETAIL:  Failing row contains (1, -100303, null).',
      '2026-11-26 09:26:46.948 UTC [20443] app@db STATEMENT:  UPDATE branches SET balance = balance + -4695;',
      '2026-11-26 09:26:46.949 UTC [20443] app@db LOG:  disconnection: session time: 0:00:14.519',
    ];
    const at = (n: number) => log[n - 1];
    expect(blockOf(at, 1, none)).toEqual([]);
    expect(untagged(at, 1)(2)).toBe('DETAIL:  Failing row contains (1, -100303, null).');
    expect(blockOf(untagged(at, 1), 1, none)).toEqual([2, 3]);
    // A line that starts with a number but shares no prefix with its neighbours is read as it is.
    const plain = ['3 errors found', 'src/a.ts:3:1 error x'];
    expect(untagged((n) => plain[n - 1], 1)(2)).toBe('src/a.ts:3:1 error x');
  });
});

describe("a failure's details", () => {
  it("take a test protocol's `message:` line", () => {
    const tap = [
      'not ok 31 Arrays > chunk',
      '  ---',
      '  message: "chunk into parts of 1 elements"',
      '  severity: failed',
    ];
    expect(blockOf((n) => tap[n - 1], 1, none)).toEqual([3]);
  });

  it("take as a parent the line right above that introduces the error (the test's own title)", () => {
    const mocha = [
      '  1) res',
      '       .format(obj)',
      '         with canonicalized mime types',
      '           should Vary: Accept:',
      '     Error: expected "Vary" of "Accept", got "Accept-Encoding"',
    ];
    const at = (n: number) => mocha[n - 1];
    expect(introducer(at, 5)).toEqual([4]);
    expect(introducer(at, 4)).toEqual([]);
  });
});
