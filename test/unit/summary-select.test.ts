import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parentOf } from '../../src/summary/blocks.js';
import { Collector } from '../../src/summary/collector.js';
import { summarize, summarizeModel } from '../../src/summary/summarize.js';
import { DEFAULT_BUDGET } from '../../src/summary-budget.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

describe('selection by information', () => {
  it('never hides both ends: a log of salient-looking messages still shows its first and last line', () => {
    // Every commit message is its own template and says "failed" or "error", as a real project's
    // log does: worth more than any line of the start or the end, were those not kept.
    const words = 'parser lexer cache store index search render capture signal budget window token'.split(
      ' ',
    );
    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return words[seed % words.length];
    };
    const commits = Array.from({ length: 300 }, (_, i) =>
      [
        `commit ${(0x9f3a00 + i).toString(16).padStart(40, '0')}`,
        'Author: Dev <dev@example.com>',
        `Date:   Wed Nov ${(i % 28) + 1} 10:00:00 2026 +0000`,
        '',
        `    ${pick()} ${pick()}: 'Tests: ${i} failed, ${700 + i} passed' error in ${pick()} ${pick()} ${pick()}`,
        '',
      ].join('\n'),
    );
    const text = `${commits.join('\n')}\n 3 files changed, 12 insertions(+)`;
    const out = summarize(text, { ...facts, exitCode: 0 });
    expect(out.split('\n')[1]).toBe(`commit ${(0x9f3a00).toString(16).padStart(40, '0')}`);
    expect(out.trimEnd().split('\n').at(-1)).toContain('3 files changed, 12 insertions(+)');
  });

  it('shows a distinct error before more copies of one already shown, and its DETAIL line with it', () => {
    // A database load: thousands of echoed rows, one error on one table, then many on another
    // (the same message but for the table's name), as psql prints them.
    const rows = (from: number, n: number) =>
      Array.from(
        { length: n },
        (_, i) => `    (${from + i}, ${(from + i) % 97}, ${(i * 7) % 3000}, 0.99, 1),`,
      );
    const fk = (line: number, table: string, key: number) => [
      `psql:load.sql:${line}: ERROR:  insert or update on table "${table}" violates foreign key constraint "${table}_track_id_fkey"`,
      `DETAIL:  Key (track_id)=(${key}) is not present in table "track".`,
    ];
    const text = [
      ...rows(1, 3000),
      ...fk(3010, 'invoice_line', 1006),
      ...rows(3001, 3000),
      ...Array.from({ length: 9 }, (_, k) => [
        ...fk(6100 + k * 400, 'playlist_track', 3000 + k),
        ...rows(10000 + k * 400, 398),
      ]).flat(),
      'COMMIT',
    ].join('\n');
    const out = summarize(text, { ...facts, exitCode: 0 });
    expect(out).toContain('on table "invoice_line" violates');
    expect(out).toContain('Key (track_id)=(1006) is not present');
  });

  it('keeps a singleton error among hundreds of lines of one template', () => {
    for (const n of [600, 6000]) {
      const warnings = (from: number) =>
        Array.from(
          { length: n },
          (_, i) =>
            `src/mod${(i + from) % 40}.c:${i + from}:7: warning: unused variable 'tmp${i % 9}' [-Wunused-variable]`,
        );
      const text = [
        ...warnings(0),
        "src/parse.c:412:9: error: 'token' undeclared (first use in this function)",
        ...warnings(n),
        'make: *** [Makefile:12: all] Error 1',
      ].join('\n');
      const out = summarize(text, facts);
      expect(out).toContain("src/parse.c:412:9: error: 'token' undeclared (first use in this function)");
      expect(out.length).toBeLessThanOrEqual(2000);
    }
  });

  it("shows a failure's diff and location among hundreds of passing lines that mention error", () => {
    for (const n of [200, 2000]) {
      const passing = (from: number) =>
        Array.from(
          { length: n },
          (_, i) => `    ✓ returns an error when input ${i + from} is invalid (${i % 7}ms)`,
        );
      const text = [
        '  parser',
        ...passing(0),
        '    1) rejects a trailing comma',
        ...passing(n),
        '',
        `  ${2 * n} passing (3s)`,
        '  1 failing',
        '',
        '  1) parser',
        '       rejects a trailing comma:',
        '',
        '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        '',
        '1 !== 2',
        '',
        '      + expected - actual',
        '',
        '      -1',
        '      +2',
        '',
        '      at Context.<anonymous> (test/parser.test.js:187:14)',
        '      at process.processImmediate (node:internal/timers:478:21)',
        '',
        ...Array.from({ length: n }, (_, i) => `debug: flushed cache segment ${i} of ${n}`),
        'done',
      ].join('\n');
      const out = summarize(text, facts);
      expect(out).toContain('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
      expect(out).toContain('at Context.<anonymous> (test/parser.test.js:187:14)');
      expect(out).toContain('      -1\n');
      expect(out).toContain('      +2\n');
      expect(out).toContain('1 failing');
      // A passing test is never salient, whatever its name says.
      const salient = summarizeModel(text, facts).lines.filter((l) => l.role === 'salient');
      expect(salient.some((l) => l.text.includes('✓'))).toBe(false);
    }
  });

  it('shows all 21 locations of a 2.6 kB type-check', () => {
    const lines = Array.from(
      { length: 21 },
      (_, i) =>
        `src/routes/api/v2/handler${i}.ts(${10 + i * 7},${3 + (i % 5)}): error TS2322: Type 'string | undefined' is not assignable to type 'number'.`,
    );
    const text = `${[...lines, 'Found 21 errors in 21 files.'].join('\n')}\n`;
    expect(text.length).toBeGreaterThan(2400);
    const out = summarize(text, facts);
    for (const l of lines) expect(out).toContain(l);
  });

  it('prints an output whole when a summary would save less than a third of it, up to twice the budget', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}: ${'x'.repeat(80)}`);
    const text = `${lines.join('\n')}\n`;
    expect(summarize(text, facts)).toContain(text);
    const long = `${Array.from({ length: 60 }, (_, i) => `line ${i}: ${'x'.repeat(80)}`).join('\n')}\n`;
    expect(summarize(long, facts).length).toBeLessThanOrEqual(2000);
  });
});

describe('re-runs', () => {
  const fingerprintOf = (text: string) => {
    const c = new Collector({});
    c.push(Buffer.from(text));
    return c.end().fingerprint;
  };
  const filler = (n: number, from = 0) =>
    Array.from(
      { length: n },
      (_, i) => `compiling ${['alpha', 'beta', 'gamma'][(i + from) % 3]} unit ${i + from}`,
    );
  const ts2345 = (line: number) =>
    `src/cors.ts(${line},9): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.`;

  it('marks one more line of an existing template new', () => {
    for (const n of [300, 4000]) {
      const log = (errors: number[]) => [...filler(n), ...errors.map(ts2345), ...filler(n, n)].join('\n');
      const previous = fingerprintOf(log([10, 20, 30, 40, 50]));
      const out = summarize(
        log([10, 20, 30, 35, 40, 50]),
        { ...facts, previousId: 'tsc_00000001' },
        { previous },
      );
      expect(out).toContain(`+${n + 4}: ${ts2345(35)}`);
      expect(out).toContain('1 new line (marked +)');
    }
  });

  it('marks a new line wherever it is shown: as the parent header of a new error too', () => {
    // A linter's finding: a header naming the place, then the message indented under it. A new
    // finding brings its header as the message's parent; the header is new as well.
    const finding = (file: string, line: number, rule: string, message: string) => [
      `${file}:${line}:7 lint/${rule} ${'━'.repeat(40)}`,
      '',
      `  × ${message}`,
      '',
    ];
    const old = [
      ...finding(
        'lib/a.js',
        12,
        'suspicious/noAssignInExpressions',
        'The assignment should not be in an expression.',
      ),
      ...finding(
        'lib/b.js',
        40,
        'correctness/noInnerDeclarations',
        'This var should be declared at the root.',
      ),
    ];
    const added = finding(
      'lib/r.js',
      205,
      'correctness/noConstantCondition',
      'This condition always evaluates to the same value.',
    );
    const previous = fingerprintOf([...filler(300), ...old, ...filler(300, 300)].join('\n'));
    const out = summarize(
      [...filler(300), ...old, ...added, ...filler(300, 300)].join('\n'),
      { ...facts, previousId: 'biome_00000001' },
      { previous },
    );
    expect(out).toContain(`+${300 + old.length + 3}:   × This condition always evaluates to the same value.`);
    expect(out).toContain(`+${300 + old.length + 1}: lib/r.js:205:7 lint/correctness/noConstantCondition`);
  });

  it('marks one more copy of a line already there, word for word, new (a multiset, not a set)', () => {
    const finding = (loc: string) => [
      `src/models.py:${loc}:`,
      '        D102: Missing docstring in public method',
    ];
    const log = (locs: string[]) =>
      [...filler(300), ...locs.flatMap(finding), ...filler(300, 300)].join('\n');
    const before = ['12 in `get`', '40 in `put`', '77 in `post`'];
    const previous = fingerprintOf(log(before));
    const out = summarize(
      log([...before, '90 in `patch`']),
      { ...facts, previousId: 'pydocstyle_00000001' },
      { previous },
    );
    expect(out).toContain('2 new lines (marked +)');
    expect(out).toContain('307: src/models.py:90 in `patch`:');
    expect(out).toContain('+308:         D102: Missing docstring in public method');
    const same = summarize(log(before), { ...facts, previousId: 'pydocstyle_00000001' }, { previous });
    expect(same).toContain('0 new lines');
  });

  it('does not call a line whose only change is a number new', () => {
    const log = (errors: number[]) => [...filler(300), ...errors.map(ts2345), ...filler(300, 300)].join('\n');
    const previous = fingerprintOf(log([10, 20, 30]));
    const out = summarize(log([11, 21, 31]), { ...facts, previousId: 'tsc_00000001' }, { previous });
    expect(out).toContain('0 new lines');
    expect(out).not.toMatch(/^\+\d+:/m);
  });

  it('keeps the verdict line whatever the news', () => {
    const words = ['week', 'leap', 'year', 'month', 'zone', 'parse', 'format', 'locale'];
    const failure = (i: number, run: string) => [
      `FAIL test/plugin/${words[i % 8]}${words[(i >> 3) % 8]}.test.js`,
      `  ✕ ${words[(i * 5) % 8]} ${words[(i * 3) % 8]} ${run} case ${words[i % 8]}`,
      `    ${words[i % 8]}${words[(i >> 3) % 8]}Error: ${words[(i * 7) % 8]} ${run} went wrong`,
      `    at Object.<anonymous> (test/plugin/${words[i % 8]}${words[(i >> 3) % 8]}.test.js:${i + 10}:7)`,
      '',
    ];
    const run = (failed: number, name: string, n: number) =>
      [
        ...filler(300),
        ...Array.from({ length: n }, (_, i) => failure(i, name)).flat(),
        '',
        `Test Suites: ${failed} failed, 83 passed, 93 total`,
        `Tests:       ${failed} failed, 774 passed, 794 total`,
        'Snapshots:   0 total',
        `Time:        ${failed * 3}.112s`,
        'Ran all test suites.',
      ].join('\n');
    const previous = fingerprintOf(run(18, 'old', 18));
    const out = summarize(run(20, 'new', 60), { ...facts, previousId: 'jest_00000001' }, { previous });
    expect(out).toMatch(/^\+\d+: Tests: {7}20 failed, 774 passed, 794 total$/m);
    expect(out.length).toBeLessThanOrEqual(DEFAULT_BUDGET);
  });

  it('marks every new line with its number, so that a diff line of the output cannot pass for one', () => {
    const diff = (extra: string[]) =>
      [
        ...filler(300),
        '--- a/x.txt',
        '+++ b/x.txt',
        '+ actual',
        '- expected',
        ...extra,
        ...filler(300, 300),
      ].join('\n');
    const previous = fingerprintOf(diff([]));
    const out = summarize(
      diff(['error: the values differ at key "zeta"']),
      { ...facts, previousId: 'x_00000001' },
      { previous },
    );
    expect(out).toContain('+305: error: the values differ at key "zeta"');
    // (A gap between two numbered lines is the short gap alone.)
    for (const l of out.trimEnd().split('\n').slice(2))
      expect(l).toMatch(/^(?:\+?\d+: |\[ctxwrap: |\u22ee$)/);
  });
});

describe('parent headers', () => {
  it('are lines with words, not rules of dashes or box characters', () => {
    const lines = ['Failed tests', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/9]⎯', ' FAIL test/body.test.ts > fails if json is invalid'];
    expect(parentOf((n) => lines[n - 1], 3)).toBe(1);
  });
});

describe('a code line under its frame', () => {
  it("brings the frame that says where: a traceback's assert line comes with its File line", () => {
    // SymPy's own runner, verbose, two failures after 884 passing tests (bench/needles).
    const text = readFileSync(
      new URL(
        '../../bench/needles/cases/sympy-test-verbose-printing-latex-binomial/output.txt',
        import.meta.url,
      ),
      'utf8',
    );
    const out = summarize(text, facts).split('\n');
    const code = out.findIndex((l) => l.includes('assert latex(binomial(x, y))'));
    expect(code).toBeGreaterThan(0);
    expect(out[code - 1]).toMatch(/^998: {3}File ".*\/test_latex\.py", line 171, in test_latex_basic$/);
  });
});
