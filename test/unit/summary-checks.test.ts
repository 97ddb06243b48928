import { describe, expect, it } from 'vitest';
import { failingChecks } from '../../src/summary/checks.js';
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

describe('failingChecks', () => {
  const passing = Array.from({ length: 8 }, (_, i) => `test_${i} ok`);
  it('needs passing siblings of the same indentation and slot', () => {
    const failing = failingChecks(passing);
    expect(failing('test_9 F')).toBe(true);
    expect(failing('    test_9 F')).toBe(false);
    expect(failing('F test_9')).toBe(false);
    expect(failingChecks(passing.slice(0, 3))('test_9 F')).toBe(false);
  });

  it('reads a skipped or plain line as no failure', () => {
    const failing = failingChecks(passing);
    expect(failing('test_9 SKIPPED')).toBe(false);
    expect(failing('test_9 s')).toBe(false);
    expect(failing('test_9 ok')).toBe(false);
  });
});
