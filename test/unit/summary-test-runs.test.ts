import { describe, expect, it } from 'vitest';
import { checksOf, evenChecks } from '../../src/summary/checks.js';
import { Collector } from '../../src/summary/collector.js';
import { parseFingerprint, serializeFingerprint } from '../../src/summary/fingerprint.js';
import { isMovedShare, rowOf } from '../../src/summary/moved.js';
import { namesakes } from '../../src/summary/namesakes.js';
import { scoreLine } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 2, durationMs: 2500 };

describe('test runs', () => {
  it("reads a test protocol's diagnostic past its comment mark: an error word leads it", () => {
    expect(scoreLine('#   Failed test at t/007_pc_esc.t line 46.').score).toBe(8);
    expect(scoreLine('    #   Failed test at t/old-base.t line 319.').score).toBe(8);
    // A comment that only holds the word is no message.
    expect(scoreLine('# failed').score).toBe(4);
  });

  it("shows a TAP failure's got and expected lines with it, among thousands of passing checks", () => {
    const passing = (file: string, n: number) => [
      `${file} ${'.'.repeat(20)} `,
      `1..${n}`,
      ...Array.from({ length: n }, (_, i) => `ok ${i + 1} - check ${i + 1} of ${file} holds`),
      'ok',
    ];
    const files = Array.from({ length: 60 }, (_, i) => passing(`t/${100 + i}_case.t`, 40)).flat();
    const failing = [
      '',
      '#   Failed test at t/007_pc_esc.t line 46.',
      `#          got: '{"test":"abc\\u000cdef"}'`,
      `#     expected: '{"test":"abc\\fdef"}'`,
      '# Looks like you failed 1 test of 17.',
      `t/007_pc_esc.t ${'.'.repeat(20)} `,
      '1..17',
      ...Array.from({ length: 6 }, (_, i) => `ok ${i + 1}`),
      'not ok 7',
      ...Array.from({ length: 10 }, (_, i) => `ok ${i + 8}`),
      'Dubious, test returned 1 (wstat 256, 0x100)',
      'Failed 1/17 subtests ',
    ];
    // Another file's notes, each at a location: what a check printed on its way, not a failure.
    const notes = Array.from(
      { length: 30 },
      (_, i) =>
        `#  (malformed JSON string number ${i}, at character offset ${i + 4} (before "x${i}") at t/018_json_checker.t line 32.`,
    );
    const out = [...files.slice(0, 900), ...failing, ...notes, ...files.slice(900)].join('\n');
    const summary = summarize(
      `${out}\nResult: FAIL\nFailed 1/61 test programs. 1/2417 subtests failed.\n`,
      facts,
      {
        budget: 1200,
      },
    );
    expect(summary).toContain('#   Failed test at t/007_pc_esc.t line 46.');
    expect(summary).toContain(`got: '{"test":"abc\\u000cdef"}'`);
    expect(summary).toContain(`expected: '{"test":"abc\\fdef"}'`);
  });

  it('reads a count of what was found as a count line, and a count of broken things as failing', () => {
    expect(scoreLine('Found 63 broken links.')).toEqual({ kind: 'count', score: 13 });
    expect(scoreLine('Found 185 clones.')).toEqual({ kind: 'count', score: 10 });
    expect(scoreLine('✖ Found 328 circular dependencies!').kind).toBe('count');
    expect(scoreLine('Total errors found: 431').kind).toBe('count');
    // A page not found is no count.
    expect(scoreLine('HTTP request sent, awaiting response... 404 File not found').kind).toBe('error');
  });

  it('marks a count of what was found when it moved since the last run', () => {
    const fingerprintOf = (text: string) => {
      const c = new Collector({});
      c.push(Buffer.from(text));
      return c.end().fingerprint;
    };
    const spider = (broken: number) =>
      [
        ...Array.from(
          { length: 400 },
          (_, i) => `--2026-11-26 16:00:${10 + (i % 40)}--  http://127.0.0.1:4000/api/p${i}.html`,
        ),
        `Found ${broken} broken links.`,
        '',
        ...Array.from({ length: 40 }, (_, i) => `http://127.0.0.1:4000/api/gone${i}.html`),
        '',
        'FINISHED --2026-11-26 16:00:39--',
      ].join('\n');
    const previous = fingerprintOf(spider(62));
    const out = summarize(spider(63), { ...facts, exitCode: 8, previousId: 'wget_00000001' }, { previous });
    expect(out).toContain('+401: Found 63 broken links.\n');
  });

  it("links a test's output to its fail mark inside a record, by the test's name", () => {
    const event = (test: string, output: string) =>
      `{"Time":"2026-11-25T18:19:10.05Z","Action":"output","Package":"example.org/flag","Test":"${test}","Output":"${output}\\n"}`;
    const lines = [
      event('TestBytesHex', '--- PASS: TestBytesHex (0.00s)'),
      `{"Action":"run","Package":"example.org/flag","Test":"TestCount"}`,
      event('TestCount', '=== RUN   TestCount'),
      event('TestCount', '    count_test.go:52: expected 3, got 1'),
      event('TestCount', '--- FAIL: TestCount (0.00s)'),
      `{"Action":"fail","Package":"example.org/flag","Test":"TestCount","Elapsed":0}`,
      event('TestEmptyDS', '=== RUN   TestEmptyDS'),
    ].map((text, i) => ({ line: i + 1, text }));
    expect([...namesakes(lines, false)]).toEqual([4]);
    // A mark given as a value is no check's outcome.
    const valued = lines.map((l) => ({ ...l, text: l.text.replace('--- FAIL: TestCount', 'level = FAIL') }));
    expect([...namesakes(valued, false)]).toEqual([]);
  });

  it('marks a share that moved since the last run, not drift, progress or a rate', () => {
    expect(isMovedShare('Lines executed:57.89% of 19')).toBe(true);
    expect(isMovedShare('tests/a.py::test_x FAILED                 [ 34%]')).toBe(false);
    expect(isMovedShare('    50K .......... .......... 61% 90.8M 0s')).toBe(false);
    expect(isMovedShare('src/a.c:12: 50% of the branches')).toBe(false);
    const fingerprintOf = (text: string) => {
      const c = new Collector({});
      c.push(Buffer.from(text));
      return c.end().fingerprint;
    };
    const report = (moved: string) =>
      Array.from({ length: 300 }, (_, i) => [
        `Function 'f_${i}'`,
        i === 150 ? moved : `Lines executed:${(i % 7) * 10 + 30}.00% of ${(i % 13) + 2}`,
        'No branches',
        '',
      ])
        .flat()
        .join('\n');
    const previous = fingerprintOf(report('Lines executed:100.00% of 19'));
    const out = summarize(
      report('Lines executed:57.89% of 19'),
      { ...facts, exitCode: 0, previousId: 'gcov_00000001' },
      { previous },
    );
    expect(out).toContain('1 new line (marked +)');
    expect(out).toContain('+602: Lines executed:57.89% of 19\n');
  });

  it('finds nothing new in the same output again, past the hashes a run keeps of its lines', () => {
    // More distinct lines than the previous run keeps exact hashes of (EXACT_K): a share line whose
    // hash was not kept is unknown, and unknown is never news, though its text reads as a moved share.
    const fingerprintOf = (text: string) => {
      const c = new Collector({});
      c.push(Buffer.from(text));
      return c.end().fingerprint;
    };
    const log = Array.from({ length: 3000 }, (_, i) => [
      `commit ${(i * 7919).toString(16).padStart(8, '0')} of the round ${i}`,
      `    tuning ${500 + (i % 50)} -> ${501 + (i % 50)}, bytes ${(i % 9) + 1}.4${i % 10}% -> 1.4${i % 7}%`,
      `    held out ${200 + (i % 30)}/291, shared 33/36 (step ${i})`,
      '',
    ])
      .flat()
      .join('\n');
    const previous = fingerprintOf(log);
    const out = summarize(log, { ...facts, exitCode: 0, previousId: 'git_00000001' }, { previous });
    expect(out).toContain('0 new lines');
    expect(out).not.toMatch(/^\+\d+:/m);
  });

  it('reads an outcome quoted as the first field of a record as a check', () => {
    const pass = (i: number) =>
      `["pass",{"title":"passes case ${i}","fullTitle":"suite passes case ${i}","duration":1}]`;
    const lines = [
      ...Array.from({ length: 8 }, (_, i) => pass(i)),
      '["fail",{"title":"replaces the key","err":"x"}]',
    ];
    const checks = checksOf(lines);
    expect(checks.failing('["fail",{"title":"replaces the key","err":"x"}]')).toBe(true);
    expect(checks.failing(pass(1))).toBe(false);
  });

  it('evens out the worth of failing checks but for their position: the first is not worth less', () => {
    const held = [
      { line: 50, worth: 17.36, check: true },
      { line: 80, worth: 17.43, check: true },
      { line: 323, worth: 18.76, check: true },
      { line: 324, worth: 19.3, check: true },
      { line: 60, worth: 5, check: false },
    ];
    evenChecks(held, (n) => (n === 324 ? 1 : 0));
    expect(held.map((h) => h.worth)).toEqual([18.76, 18.76, 18.76, 19.76, 5]);
  });

  it("marks a tally's row whose count moved, not one whose place drifted", () => {
    expect(rowOf('   128  lib/command.js:27')).toBe('   128  lib/command.js:#');
    expect(rowOf('  87 |   similar.sort()')).toBeUndefined();
    expect(rowOf('  12 passing (3s)')).toBeUndefined();
    const fingerprintOf = (text: string) => {
      const c = new Collector({});
      c.push(Buffer.from(text));
      return c.end().fingerprint;
    };
    const run = (command: number, help: number) =>
      [
        ...Array.from(
          { length: 500 },
          (_, i) =>
            `src/f${i % 9}.ts:${i + 1}:3 - error TS7006: Parameter 'p${i}' implicitly has an 'any' type.`,
        ),
        `Found ${command + help + 11} errors in 3 files.`,
        '',
        'Errors  Files',
        '     5  index.js:9',
        `   ${command}  lib/command.js:27`,
        `    ${help}  lib/help.js:${help === 30 ? 64 : 63}`,
        '     6  lib/argument.js:56',
      ].join('\n');
    // As the next run reads it: stored, then parsed.
    const previous = parseFingerprint(JSON.parse(serializeFingerprint(fingerprintOf(run(129, 30)))));
    expect(previous?.rows?.length).toBeGreaterThan(0);
    const out = summarize(
      run(128, 30),
      { ...facts, previousId: 'tsc_00000001' },
      previous ? { previous } : {},
    );
    expect(out).toContain('+505:    128  lib/command.js:27\n');
    // A row whose place drifted but whose count did not is no news.
    const drifted = summarize(
      run(129, 31),
      { ...facts, previousId: 'tsc_00000001' },
      { previous: fingerprintOf(run(129, 31).replace('lib/help.js:63', 'lib/help.js:70')) },
    );
    expect(drifted).not.toContain('+506:');
  });

  it('lists more of many failing checks before a second copy of their messages', () => {
    const kinds = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    const lines: string[] = [];
    for (let i = 0; i < 600; i++) {
      const name = `TestDecode/valid/${kinds[i % 6]}/${kinds[(i * 7) % 6]}-${i}`;
      if (i % 23 !== 11) lines.push(`PASS ${name} (0.00s)`);
      else
        lines.push(
          `=== RUN   ${name}`,
          '    toml_test.go:352: ',
          '        Error:',
          `        toml: line ${(i % 5) + 1} (last key "k${i}"): Invalid value "+${i}": cannot have leading zeroes`,
          '        Input:',
          ...Array.from({ length: 6 }, (_, k) => `        k${k} = ${i + k}`),
          '        Want:',
          `        --- FAIL: ${name} (0.00s)`,
          `FAIL ${name} (0.00s)`,
        );
    }
    lines.push('FAIL TestDecode (0.06s)', 'FAIL', 'DONE 600 tests, 26 failures in 8.150s');
    const summary = summarize(lines.join('\n'), { ...facts, exitCode: 1 });
    const failing = summary.split('\n').filter((l) => /^\d+: FAIL TestDecode\//.test(l));
    // (12 since each failure's `Error:` label brings its message, the line under it: see
    // summary-block-labels.test.ts.)
    expect(failing.length).toBeGreaterThanOrEqual(12);
  });

  it("marks a new finding's header with it when the header only drifted in its numbers", () => {
    const fingerprintOf = (text: string) => {
      const c = new Collector({});
      c.push(Buffer.from(text));
      return c.end().fingerprint;
    };
    // Names without digits, as a method's: a header's form is its own.
    const name = (i: number) =>
      `method_${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
    const report = (shift: number, extra: boolean) =>
      Array.from({ length: 150 }, (_, i) => {
        const at = i < 60 ? 10 * i + 1 : 10 * i + 1 - shift;
        if (i === 60 && extra)
          return [
            `src/models.py:${at} in public method \`${name(i)}\`:`,
            '        D102: Missing docstring in public method',
          ];
        return [
          `src/models.py:${at} in public method \`${name(i)}\`:`,
          `        D40${i % 3}: First line should be in imperative mood (found ${i})`,
        ];
      })
        .flat()
        .join('\n');
    const previous = fingerprintOf(report(0, false));
    const out = summarize(
      report(1, true),
      { ...facts, exitCode: 1, previousId: 'pydoc_00000001' },
      { previous },
    );
    expect(out).toContain('+122:         D102: Missing docstring in public method');
    expect(out).toContain(`+121: src/models.py:600 in public method \`${name(60)}\`:`);
    // A header that drifted above a finding that did not change is no news.
    expect(out.split('\n').filter((l) => /^\+\d+: /.test(l))).toHaveLength(2);
  });
});
