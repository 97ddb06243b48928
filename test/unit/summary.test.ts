import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { parseFingerprint, serializeFingerprint } from '../../src/summary/fingerprint.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };
/** Varied filler lines that do not fold into one run. */
const filler = (n: number, from = 0) =>
  Array.from(
    { length: n },
    (_, i) =>
      `step ${['alpha', 'beta', 'gamma', 'delta'][(i + from) % 4]} ${i + from} ${'ok'.repeat((i % 5) + 1)}`,
  );

describe('summarize', () => {
  it('shows the innermost frame above an exception in the middle', () => {
    const text = [
      ...filler(700),
      'Traceback (most recent call last):',
      '  File "/srv/app/main.py", line 9, in <module>',
      '    run()',
      '  File "/srv/app/parse.py", line 4, in parse',
      '    return int(row["qty"])',
      "ValueError: invalid literal for int() with base 10: 'three'",
      ...filler(700, 700),
    ].join('\n');
    const out = summarize(text, facts);
    expect(out).toContain('704:   File "/srv/app/parse.py", line 4, in parse\n');
    expect(out).toContain("706: ValueError: invalid literal for int() with base 10: 'three'\n");
  });

  it('shows the file an indented error belongs to', () => {
    const text = [
      ...filler(300),
      '/repo/lib/response.js',
      ...filler(40).map((l) => `  ${l} warning`),
      "  268:47  error  'escpae' is not defined  no-undef",
      ...filler(300, 400),
    ].join('\n');
    const out = summarize(text, facts);
    expect(out).toContain('301: /repo/lib/response.js\n');
    expect(out).toContain("342:   268:47  error  'escpae' is not defined  no-undef\n");
  });

  it('attaches the location that follows an error', () => {
    const text = [
      ...filler(500),
      'error[E0502]: cannot borrow `x` as mutable',
      '   --> src/literals.rs:438:9',
      ...filler(500, 600),
    ].join('\n');
    expect(summarize(text, facts)).toContain(
      '501: error[E0502]: cannot borrow `x` as mutable\n502:    --> src/literals.rs:438:9\n',
    );
  });

  it('folds near-identical salient lines into one with a count', () => {
    const text = [
      ...filler(300),
      ...Array.from({ length: 1000 }, (_, i) => `src/m${i}.c:${i}:1: warning: unused variable 'tmp'`),
      ...filler(300, 300),
    ].join('\n');
    const out = summarize(text, facts);
    // One exemplar says how many are like it; a few more members at most, near the end.
    expect(
      out.match(/warning: unused variable 'tmp' \[\+999 similar, (?:last 1300|first 301)\]/g),
    ).toHaveLength(1);
    expect(out.match(/warning: unused variable/g)?.length).toBeLessThanOrEqual(5);
  });

  it('prefers lines naming a word of the command line', () => {
    const text = [...filler(400), 'Setting up inkscape (1.2.2-2) ...', ...filler(400, 400)].join('\n');
    expect(summarize(text, facts, { hints: ['inkscape'] })).toContain(
      '401: Setting up inkscape (1.2.2-2) ...',
    );
  });

  it('collapses runs of identical lines with a count', () => {
    const text = ['start', ...Array.from({ length: 50 }, () => 'same line'), 'end'].join('\n');
    const out = summarize(text, facts, { inlineThreshold: 10 });
    expect(out).toContain('same line\n[ctxwrap: previous line repeated 49 more times]\nend\n');
  });

  it('counts a repeated salient line once: one line and a repeat count, not "+N similar" beside it', () => {
    const loop = Array.from({ length: 50 }, () => 'error: connection refused');
    for (const text of [
      [...loop, 'gave up'].join('\n'),
      [...filler(600), ...loop, ...filler(600, 600)].join('\n'),
    ]) {
      const out = summarize(text, facts, { inlineThreshold: 10 });
      expect(out).toContain('error: connection refused\n[ctxwrap: previous line repeated 49 more times]\n');
      expect(out).not.toContain('similar, last');
      expect(out.split('error: connection refused').length - 1).toBe(1);
    }
  });
});

describe('comparing with the previous run', () => {
  const fingerprintOf = (text: string) => {
    const c = new Collector({});
    c.push(Buffer.from(text));
    return c.end().fingerprint;
  };
  const errors = (names: string[]) =>
    names.map((n, i) => `src/${n}.ts(${i + 1},1): error TS2322: ${n} is wrong`);
  const log = (lines: string[]) => [...filler(300), ...lines, ...filler(300, 300)].join('\n');

  it('marks new lines by content and names the run it compares with', () => {
    const previous = fingerprintOf(log(errors(['a', 'b', 'c'])));
    const out = summarize(
      log(errors(['a', 'c', 'd'])),
      { ...facts, previousId: 'tsc_00000001' },
      { previous },
    );
    expect(out).toContain(
      '[ctxwrap: vs tsc_00000001, the previous run of this command here: 1 new line (marked +), 1 salient gone]',
    );
    expect(out).toContain('+303: src/d.ts(3,1): error TS2322: d is wrong');
    expect(out).toContain('301: src/a.ts(1,1): error TS2322: a is wrong');
  });

  it('names the salient lines that are gone: a re-run that fixes one error says which', () => {
    const previous = fingerprintOf(log(errors(['a', 'b', 'c'])));
    const stored = parseFingerprint(JSON.parse(serializeFingerprint(previous)));
    const out = summarize(
      log(errors(['a', 'c'])),
      { ...facts, previousId: 'tsc_00000001' },
      { previous: stored },
    );
    expect(out).toContain(
      '0 new lines (marked +), 1 salient gone]\n[ctxwrap: gone: src/b.ts(2,1): error TS2322: b is wrong]\n',
    );
    expect(out.match(/\[ctxwrap: gone: /g)).toHaveLength(1);
  });

  it('does not name as gone a line still there but for its duration', () => {
    const run = (names: string[], time: string) =>
      log([`FAIL test/plugin/zone.test.js${time}`, ...errors(names)]);
    const previous = fingerprintOf(run(['a', 'b'], ' (16.874s)'));
    const out = summarize(run(['a'], ''), { ...facts, previousId: 'jest_00000001' }, { previous });
    const gone = out.split('\n').filter((l) => l.startsWith('[ctxwrap: gone: '));
    expect(gone).toEqual(['[ctxwrap: gone: src/b.ts(2,1): error TS2322: b is wrong]']);
  });

  it('keeps a bounded number of salient texts, each cut short, and names at most 3 gone', () => {
    const many = errors(
      Array.from({ length: 30 }, (_, i) => `m${'abcdefghijklmnopqrstuvwxyzABCD'[i]}${'x'.repeat(300)}`),
    );
    const previous = fingerprintOf(log(many));
    expect(previous.texts).toHaveLength(20);
    for (const [, t] of previous.texts ?? []) expect(t.length).toBeLessThanOrEqual(200);
    const out = summarize(log(errors(['a'])), { ...facts, previousId: 'tsc_00000001' }, { previous });
    const gone = out.split('\n').filter((l) => l.startsWith('[ctxwrap: gone: '));
    expect(gone).toHaveLength(3);
    expect(gone.map((l) => l.slice(0, 22))).toEqual([
      '[ctxwrap: gone: src/ma',
      '[ctxwrap: gone: src/mb',
      '[ctxwrap: gone: src/mc',
    ]);
    expect(gone[0]).toMatch(/^\[ctxwrap: gone: src\/max+…\[[\d,]+ chars omitted\]…x+…\]$/);
    for (const l of gone) expect(l.length).toBeLessThanOrEqual(140);
  });

  it('marks a verdict whose count changed, stored or not: the number is the news', () => {
    const previous = fingerprintOf(log([...errors(['a', 'b', 'c']), 'Found 3 errors in 3 files.']));
    const stored = parseFingerprint(JSON.parse(serializeFingerprint(previous)));
    for (const p of [previous, stored]) {
      const out = summarize(
        log([...errors(['a', 'c']), 'Found 2 errors in 2 files.']),
        { ...facts, previousId: 'tsc_00000001' },
        { previous: p },
      );
      expect(out).toContain('1 new line (marked +), 1 salient gone]');
      expect(out).toContain('+303: Found 2 errors in 2 files.\n');
    }
  });

  it('does not mark a verdict that changed only in its duration or clock time', () => {
    const verdict = (ms: number, at: string) => [
      ...errors(['a']),
      `  12 passing (${ms}ms) at ${at}`,
      '  3 failing',
    ];
    const previous = fingerprintOf(log(verdict(528, '12:03:44')));
    const out = summarize(
      log(verdict(612, '12:05:01')),
      { ...facts, previousId: 'mocha_00000001' },
      { previous },
    );
    expect(out).toContain('0 new lines (marked +), 0 salient gone]');
    expect(out).not.toMatch(/^\+\d+:/m);
  });

  it('never marks one more empty line as new', () => {
    const previous = fingerprintOf(`${log(errors(['a']))}\n\n`);
    const out = summarize(
      `${log(errors(['a']))}\n\n\n\n`,
      { ...facts, previousId: 'tsc_00000001' },
      { previous },
    );
    expect(out).not.toMatch(/^\+\d+: *$/m);
    expect(out).toContain('0 new lines (marked +)');
  });

  it('says nothing when the previous run has nothing in common with this one', () => {
    const previous = fingerprintOf('sh: 1: tsc: not found\n');
    const many = errors(Array.from({ length: 20 }, (_, i) => `mod${String.fromCharCode(97 + i)}`));
    const out = summarize(log(many), { ...facts, previousId: 'tsc_00000001' }, { previous });
    expect(out).not.toContain('vs tsc_00000001');
    expect(out).not.toMatch(/^\+\d+:/m);
  });
});

describe('empty lines', () => {
  it('are never shown alone, as a number with nothing after it', () => {
    // A git log where every other commit says a test failed: the empty lines around those
    // subjects are not worth a line number and a marker of their own.
    const commit = (i: number, subject: string) =>
      `commit ${String(i * 7919).padStart(40, '0')}\nAuthor: A Person <a.person@example.com>\nDate:   Mon Nov 23 22:${String(i % 60).padStart(2, '0')}:00 2026 +0000\n\n    ${subject}\n\n src/x${i}.ts | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n\n`;
    const log = [commit(0, 'docs: a subject')];
    for (let i = 1; i < 300; i++)
      log.push(
        commit(
          i,
          i % 2 === 0 ? `    Tests: the build failed with error ${i} when the cache was cold` : `chore ${i}`,
        ),
      );
    const facts = {
      id: 'git_caa4a345',
      path: '/runs/tool_results/git_caa4a345.txt',
      exitCode: 0,
      durationMs: 245,
    };
    const lines = summarize(log.join(''), facts).split('\n');
    expect(lines.filter((l) => /^\d+: /.test(l)).length).toBeGreaterThan(3);
    expect(lines.filter((l) => /^\+?\d+: *$/.test(l))).toEqual([]);
  });
});
