import { describe, expect, it } from 'vitest';
import { checksOf, checkTitle } from '../../src/summary/checks.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

/** Deterministic names of checks, of varied words and lengths. */
function names(n: number, seed: number): string[] {
  const words = 'parse render cache token window budget signal index store lexer search capture'.split(' ');
  let s = seed;
  const pick = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return words[s % words.length] as string;
  };
  return Array.from({ length: n }, (_, i) => `${pick()}_${pick()}_${i}`);
}

/** A verbose run: one line per check, a failing one in the middle, a failure report, a verdict. */
function verbose(line: (name: string, pass: boolean) => string, report: string[], verdict: string): string {
  const all = names(900, 11);
  const checks = all.map((n, i) => line(n, i !== 450));
  // Every check's name says "error" now and then, as real tests' names do.
  for (let i = 0; i < checks.length; i += 37) checks[i] = line(`raises_error_on_${all[i]}`, true);
  return [...checks, '', ...report, '', verdict].join('\n');
}

/**
 * A long failure report: frames and assertion details of several failures, each of its own shape
 * (as a real report's messages are), worth more than a line of the progress on their own.
 */
const traceback = [
  '=================================== FAILURES ===================================',
  ...names(14, 5).flatMap((n, i) => {
    const said = names(i + 2, i).join(' ');
    return [
      `________________________________ test_${n} _________________________________`,
      `>       assert ${n}(${i}) == ${i + 1}, "${said}"`,
      `E       AssertionError: ${said}`,
      `E       assert ${'['.repeat(i % 3)}${i}${']'.repeat(i % 3)} == ${i + 1}${' + 0'.repeat(i)}`,
      '',
      `tests/test_${n}.py:${40 + i}: AssertionError`,
    ];
  }),
];

describe('a failing check among passing ones', () => {
  it('is shown when its only mark is the runner\'s letter in place of "ok" (test_x F among test_y ok)', () => {
    const text = verbose(
      (n, pass) => `test_${n} ${pass ? 'ok' : 'F'}`,
      traceback,
      '= 1 failed, 899 passed =',
    );
    expect(summarize(text, facts)).toContain(`test_${names(900, 11)[450]} F`);
  });

  it('is shown when it says FAILED where its siblings say PASSED, before a progress figure', () => {
    const text = verbose(
      (n, pass) => `${`tests/test_x.py::test_${n} ${pass ? 'PASSED' : 'FAILED'}`.padEnd(70)} [ 50%]`,
      traceback,
      '= 1 failed, 899 passed =',
    );
    expect(summarize(text, facts)).toContain(`tests/test_x.py::test_${names(900, 11)[450]} FAILED`);
  });

  it('is shown when its siblings have no mark at all (  should x (FAILED - 1) among   should y)', () => {
    const text = verbose(
      (n, pass) => `  should ${n.replace(/_/g, ' ')}${pass ? '' : ' (FAILED - 1)'}`,
      traceback,
      '900 examples, 1 failure',
    );
    expect(summarize(text, facts)).toContain(
      `  should ${names(900, 11)[450]?.replace(/_/g, ' ')} (FAILED - 1)`,
    );
  });
});

describe('checksOf', () => {
  const failingChecks = (lines: string[]) => checksOf(lines).failing;
  const passing = Array.from({ length: 8 }, (_, i) => `test_${i} ok`);
  it('needs passing siblings of the same indentation and slot', () => {
    const failing = failingChecks(passing);
    expect(failing('test_9 F')).toBe(true);
    expect(failing('    test_9 F')).toBe(false);
    expect(failing('F test_9')).toBe(false);
    expect(failingChecks(passing.slice(0, 3))('test_9 F')).toBe(false);
  });

  it('reads a numbered entry among pass marks as a failing check (mocha: `1) name` among `✔ name`)', () => {
    const failing = failingChecks(Array.from({ length: 8 }, (_, i) => `    ✔ should markup ${i}`));
    expect(failing('    1) should markup numbers')).toBe(true);
    expect(failing('    should markup numbers')).toBe(false);
  });

  it('gives a title only to a failing check among passing ones, not to any line with a fail mark', () => {
    const lines = ['Deploy stage seven', '[ERROR] upload failed', '[ERROR] upload failed'];
    const at = (n: number) => lines[n - 1];
    expect(checkTitle(at, 3, checksOf(lines).failing)).toBeUndefined();
    const tap = ['# limits array indices', 'ok 1 should be equal', 'not ok 2 should be equal'];
    expect(
      checkTitle(
        (n) => tap[n - 1],
        3,
        () => true,
      ),
    ).toBe(1);
  });

  it('reads a skipped or plain line as no failure', () => {
    const failing = failingChecks(passing);
    expect(failing('test_9 SKIPPED')).toBe(false);
    expect(failing('test_9 s')).toBe(false);
    expect(failing('test_9 ok')).toBe(false);
  });
});

describe('the title of a failing check', () => {
  it('comes with it when checks of its indentation stand between them (# title, ok …, not ok …)', () => {
    const tests = names(200, 9).flatMap((n, t) => [
      `# ${n.replace(/_/g, ' ')} works`,
      ...Array.from({ length: 4 }, (_, k) =>
        t === 120 && k === 2 ? `not ok ${t * 4 + k} should be equal` : `ok ${t * 4 + k} should be equal`,
      ),
      ...(t === 120 ? ['  ---', '    operator: equal', '    expected: 3', '    actual:   4', '  ...'] : []),
    ]);
    const text = [...tests, ...traceback, '', '# tests 800', '# pass  799', '# fail  1'].join('\n');
    const out = summarize(text, facts);
    expect(out).toContain(`# ${names(200, 9)[120]?.replace(/_/g, ' ')} works`);
  });
});

describe('a numbered failure title', () => {
  it('is shown for the one failure unlike the others, though no word of it says error', () => {
    const failures = Array.from({ length: 27 }, (_, i) => [
      i === 14
        ? `${i + 1}) Lexer hr hr`
        : `${i + 1}) CommonMark Setext headings should pass example ${80 + i}`,
      '  Message:',
      `    Expected: <h${(i % 6) + 1}>${names((i % 4) + 1, i).join(' ')}</h${(i % 6) + 1}><hr>`,
      `      Actual: <p>${'#'.repeat((i % 6) + 1)} ${names((i % 4) + 1, i).join(' ')}</p><p>---</p>`,
      '  Stack:',
      `        at UserContext.<anonymous> (file:///w/test/specs/run-spec.js:${30 + i}:7)`,
      '',
    ]).flat();
    const text = ['Started', '.'.repeat(300), '', 'Failures:', ...failures, '1620 specs, 27 failures'].join(
      '\n',
    );
    expect(summarize(text, facts)).toContain('15) Lexer hr hr');
  });
});

describe("a failure's title in a rule of underscores", () => {
  it('is shown for the first failure, though its words are a name and no error', () => {
    const iterables = ['[1, 1, 2, 3]', '[1, 1]', "['1', '10', '2']", "['3', '2', '10', '1']", '[2, 1]'];
    const failures = iterables.flatMap((it, i) => [
      `_ SortedTests.test_basic (iterable=${it}, key=None, strict=${i % 2 ? 'True' : 'False'}) _`,
      '',
      'self = <tests.test_more.SortedTests testMethod=test_basic>',
      '',
      '    def test_basic(self):',
      ...Array.from({ length: 12 }, (_, k) => `        ${names(3, i * 20 + k).join(' = ')}`),
      `>               self.assertEqual(mi_result, ${i % 2 ? 'False' : 'True'})`,
      `E               AssertionError: ${i % 2 ? 'True != False' : 'False != True'}`,
      '',
      'tests/test_more.py:4725: AssertionError',
    ]);
    const passes = names(700, 4).map(
      (n, i) => `tests/test_more.py::T::test_${n} PASSED [${String(i % 100).padStart(3)}%]`,
    );
    const text = [
      ...passes,
      '',
      '=================================== FAILURES ===================================',
      ...failures,
      '=========================== short test summary info ============================',
      ...iterables.map(
        (it) => `SUBFAILED(iterable=${it}, key=None) tests/test_more.py::SortedTests::test_basic`,
      ),
      '======= 5 failed, 695 passed, 21034 subtests passed in 222.80s (0:03:42) =======',
    ].join('\n');
    expect(summarize(text, facts)).toContain(
      '_ SortedTests.test_basic (iterable=[1, 1, 2, 3], key=None, strict=False) _',
    );
  });
});

describe('which failing check comes first', () => {
  it('of failing checks alike but for the length of their titles, the first', () => {
    // Groups of checks under a header each; the first failure's header is the longer one.
    const groups = names(120, 3).flatMap((n, g) => {
      const fail = g === 30 ? 1 : g === 31 ? 2 : g === 80 ? 3 : 0;
      const header =
        g === 30 ? `Parser when parsed from 'http://example.com./'` : `Parser when parsed from '${n}'`;
      return [
        header,
        `  should be equivalent to ${n}`,
        '  should be identical to its duplicate',
        `  should have an origin of 'http://example.com'${fail ? ` (FAILED - ${fail})` : ''}`,
        '',
      ];
    });
    const text = [...groups, ...traceback, '', '360 examples, 3 failures'].join('\n');
    expect(summarize(text, facts)).toContain('(FAILED - 1)');
  });
});
