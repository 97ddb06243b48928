import { describe, expect, it } from 'vitest';
import { placeAbove, stepAbove } from '../../src/summary/place-above.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 900 };

const fortran = [
  '/usr/bin/f95 -O3 -c /tmp/jf/test/jf_test_27.F90 -o jf_test_27.F90.o',
  '/tmp/jf/test/jf_test_27.F90:52:13:',
  '',
  '   52 |     call json%deserialize(p,json_string)',
  '      |             1',
  'Error: Found no matching specific binding for the call to the GENERIC ‘deserialize’ at (1)',
];

describe('the place an error that names none was found, said above it', () => {
  it('reads a location past a code frame and a blank line, with the echo of the line it points at', () => {
    expect(placeAbove((k) => fortran[k - 1], 6)).toEqual([2, 4]);
  });

  it('reads the line right above when it names a file, and nothing else', () => {
    const patch = ['checking file lib/a.js', 'checking file lib/b.js', 'Hunk #1 FAILED at 21.'];
    expect(placeAbove((k) => patch[k - 1], 3)).toEqual([2]);
    const prose = ['Running the suite', 'Hunk #1 FAILED at 21.'];
    expect(placeAbove((k) => prose[k - 1], 2)).toEqual([]);
    const indented = ['checking file lib/a.js', '  Hunk #1 FAILED at 21.'];
    expect(placeAbove((k) => indented[k - 1], 2)).toEqual([]);
    const tagged = ['counted /home/dev/src/ws.c', '==21969== Invalid read of size 4'];
    expect(placeAbove((k) => tagged[k - 1], 2)).toEqual([]);
    const located = ['checking file lib/a.js', 'lib/b.js:3:1: error: bad'];
    expect(placeAbove((k) => located[k - 1], 2)).toEqual([]);
  });

  it('shows the file a failed step was working on with the failure', () => {
    const lines = [
      ...Array.from({ length: 400 }, (_, i) => `checking file lib/part${i}/Plugin${i}.js`),
      'checking file lib/optimize/SplitChunksPlugin.js',
      'Hunk #1 FAILED at 21.',
      'Hunk #2 succeeded at 213 (offset 1 line).',
      '1 out of 2 hunks FAILED',
      ...Array.from({ length: 200 }, (_, i) => `checking file lib/more${i}/Other${i}.js`),
    ];
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('Hunk #1 FAILED at 21.');
    expect(out).toContain('checking file lib/optimize/SplitChunksPlugin.js');
  });

  it('reads the step a verbose build was on, right above its error at its indentation', () => {
    const page = (p: string) => [
      `         Rendering: ${p}`,
      `  Pre-Render Hooks: ${p}`,
      `  Rendering Liquid: ${p}`,
      `  Rendering Markup: ${p}`,
      `Post-Convert Hooks: ${p}`,
      `  Rendering Layout: ${p}`,
    ];
    const error =
      '  Liquid Exception: Liquid error (/work/docs/_includes/step-index.html line 30): Unknown operator = included in /work/docs/_layouts/step.html';
    const lines = [
      ...Array.from({ length: 300 }, (_, i) => page(`_docs/section${i % 9}/page-${i}.md`)).flat(),
      ...page('_docs/step-by-step/01-setup.md'),
      error,
      "/usr/lib/ruby/gems/liquid-5.4.0/lib/liquid/condition.rb:140:in `interpret_condition': Liquid error",
      ...Array.from(
        { length: 30 },
        (_, i) => `\tfrom /usr/lib/ruby/gems/jekyll-4.3.1/lib/jekyll/site${i}.rb:${i + 20}:in \`render'`,
      ),
    ];
    expect(stepAbove((k) => lines[k - 1], 1807)).toEqual([1806]);
    // A step in another stream (less indented, or tagged) or a salient line is none.
    expect(stepAbove((k) => ['checking file lib/a.js', '  Hunk #1 FAILED at 21.'][k - 1], 2)).toEqual([]);
    expect(stepAbove((k) => ['error: in lib/a.js', 'error: bad'][k - 1], 2)).toEqual([]);
    expect(
      stepAbove((k) => ['counted /home/dev/src/ws.c', '==21969== Invalid read of size 4'][k - 1], 2),
    ).toEqual([]);
    // Nor is a finding of the same list above another.
    const critic = [
      'lib/URL.pm: Always unpack @_ first at line 88.',
      'lib/URL.pm: Variable declared in conditional',
    ];
    expect(stepAbove((k) => critic[k - 1], 2)).toEqual([]);
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('Unknown operator =');
    expect(out).toContain('Rendering Layout: _docs/step-by-step/01-setup.md');
  });
});
