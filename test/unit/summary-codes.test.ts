import { describe, expect, it } from 'vitest';
import { codeRarity, findingCode } from '../../src/summary/codes.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

describe("findings' rule codes", () => {
  it('reads the code of a finding in the shapes codes have, and none where a line names no location', () => {
    const cases: [string, string | undefined][] = [
      [
        '  src/t.py:199:13 - error: No overloads for "f" match the provided arguments (reportCallIssue)',
        'reportCallIssue',
      ],
      [
        "src/c.c:2005:29: warning: suspicious usage of 'sizeof(A*)' [bugprone-sizeof-expression]",
        'bugprone-sizeof-expression',
      ],
      ['src/A.hs:211:13: warning: [-Wincomplete-patterns]', '-Wincomplete-patterns'],
      [
        'docs/R.md:21:5 error MD051/link-fragments Link fragments should be valid [Context: "x"]',
        'MD051/link-fragments',
      ],
      [
        'lib/uri.rb:1820:9: W: Lint/UselessAssignment: Useless assignment to variable - x.',
        'Lint/UselessAssignment',
      ],
      ['src/a.py:3:1: F821 Undefined name `x`', 'F821'],
      ['src/api.ts(12,5): error TS2322: Type', 'TS2322'],
      [
        'src/E.php:29      UnusedLocalVariable     Avoid unused local variables such as $x.',
        'UnusedLocalVariable',
      ],
      ['    at Object.<anonymous> (/x/y.js:12:3)', undefined],
      ['error: something failed (reportCallIssue)', undefined],
    ];
    for (const [text, code] of cases) expect(findingCode(text)).toBe(code);
  });

  it('makes a finding of a rule seen once worth more, when the output has many findings of several rules', () => {
    const line = (code: string) => ({ text: `src/a.c:1:2: warning: x [${code}]`, count: 1 });
    const lines = [
      ...Array.from({ length: 40 }, () => line('readability-length')),
      ...Array.from({ length: 9 }, () => line('macro-parentheses')),
      line('bugprone-sizeof'),
    ];
    const worth = codeRarity(lines);
    expect(worth('src/b.c:9:9: warning: y [bugprone-sizeof]')).toBe(4);
    expect(worth('src/b.c:9:9: warning: y [readability-length]')).toBe(0);
    expect(worth('plain text')).toBe(0);
    // Too few findings, or a single rule: nothing to tell.
    expect(codeRarity(lines.slice(-3))('src/b.c:9:9: warning: y [bugprone-sizeof]')).toBe(0);
  });

  it("shows the one finding of a rule seen nowhere else among hundreds of a dozen rules'", () => {
    const rules = ['unknown-member', 'unknown-argument', 'missing-param', 'unknown-param', 'unknown-var'];
    const names = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
    // Messages of many shapes (each its own template, as a strict type checker's are): only
    // the rule code of one of them is rare.
    const words = 'type member argument parameter variable unknown partially missing annotation'.split(' ');
    let seed = 11;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return words[(seed >> 8) % words.length];
    };
    const findings = Array.from({ length: 900 }, (_, i) => {
      const n = names[i % names.length];
      const said = Array.from({ length: 3 + (i % 6) }, pick).join(' ');
      return `  src/pkg/mod${i % 7}.py:${i + 10}:${(i % 30) + 1} - error: ${said} "${n}${i}" (${rules[i % 5]})`;
    });
    findings.splice(
      610,
      0,
      '  src/pkg/models.py:199:13 - error: No overloads for "to_list" match the provided arguments (report-call)',
    );
    const out = summarize([...findings, '901 errors, 0 warnings, 0 informations'].join('\n'), facts);
    expect(out).toContain('No overloads for "to_list" match the provided arguments (report-call)');
  });
});
