import { describe, expect, it } from 'vitest';
import { blockOf } from '../../src/summary/blocks.js';
import { scoreLine } from '../../src/summary/salience.js';
import { echoedLine, isCaretLine, isSourceEcho, pointedLine } from '../../src/summary/source-echo.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 900 };

describe('source echoed in a code frame', () => {
  it('gives a source line under a finding no severity, whatever words the source holds', () => {
    for (const line of [
      '1027 | prop_checkStderrRedirect = verify checkStderrRedirect "test 2>&1 > cow"',
      '  93 | severity "error" = "error"',
      '3496 | getStringFromParsec errors =',
      '7174 |                 fail "Expected } to end the command expansion"',
    ]) {
      expect(isSourceEcho(line)).toBe(true);
      expect(scoreLine(line).score).toBe(0);
    }
  });

  it("keeps a report's columns and other lines with numbers as they were", () => {
    for (const line of [
      ' 216 | ERROR | [ ] Visibility must be declared on method',
      '12 errors found | see log',
      'src/a.hs:12:3: error:',
      '| 12 | failed |',
    ])
      expect(isSourceEcho(line)).toBe(false);
    expect(scoreLine(' 216 | ERROR | [ ] Visibility must be declared on method').score).toBeGreaterThan(0);
  });

  it('spends no room on code frames that hold error words when a finding is rare', () => {
    const warning = (i: number) => [
      `src/M${i % 20}.hs:${i}:5: warning: [-Wunused-do-bind]`,
      '    A do-notation statement discarded a result of type',
      '     |',
      `${1000 + i} |     fail "expected a test 2 error here"`,
      '     |     ^^^^',
      '',
    ];
    const lines = Array.from({ length: 300 }, (_, i) => warning(i)).flat();
    lines.splice(
      900,
      0,
      'src/ShellCheck/Checks/ShellSupport.hs:272:36: error:',
      '    • Could not deduce (Num String) arising from the literal ‘1’',
      '    • In the expression: all isDigit num && num > 1',
      '',
    );
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('Could not deduce (Num String)');
    expect(out).not.toMatch(/\d+ \| {4}fail "expected a test 2 error here"/);
  });
});

describe('the source line a location points at', () => {
  it('reads the echoed line number and the line a location points at', () => {
    expect(echoedLine('   52 |     call json%deserialize(p,json_string)')).toBe(52);
    expect(echoedLine('528 |             exp = exp * 10 + digit;')).toBe(528);
    expect(echoedLine('     | ^^^^^')).toBeUndefined();
    expect(pointedLine('/tmp/jf/test/jf_test_27.F90:52:13:')).toBe(52);
    expect(pointedLine('   --> src/de.rs:528:30')).toBe(528);
    expect(pointedLine('error[E0308]: mismatched types')).toBeUndefined();
  });

  it('shows alike errors whose places are on the line under them, each with its place', () => {
    const warning = (i: number) => [
      `warning: unused variable: \`x${i}\``,
      `   --> src/m${i % 7}.rs:${i + 10}:9`,
      '    |',
      `${i + 10} |     let x${i} = compute(${i});`,
      '    |         ^^ help: prefix it with an underscore',
      '',
    ];
    const error = (file: string, line: number, code: string) => [
      'error[E0308]: mismatched types',
      `   --> ${file}:${line}:30`,
      '    |',
      `${line} |             ${code}`,
      '    |                              ^^^^^ expected `i32`, found `u8`',
      '',
    ];
    const lines = [
      ...Array.from({ length: 150 }, (_, i) => warning(i)).flat(),
      ...error('src/de.rs', 97, 'c => $a >= c / 10 && ($a > c / 10 || $b > c % 10),'),
      ...error('src/de.rs', 528, 'exp = exp * 10 + digit;'),
      ...Array.from({ length: 150 }, (_, i) => warning(i + 150)).flat(),
      'error: could not compile `serde_json` (lib) due to 2 previous errors; 300 warnings emitted',
    ];
    const out = summarize(lines.join('\n'), facts);
    expect(out.split('error[E0308]: mismatched types').length).toBe(3);
    expect(out).toContain('--> src/de.rs:97:30');
    expect(out).toContain('--> src/de.rs:528:30');
  });
});

describe('the source line a caret points into', () => {
  it('tells a caret line under an echoed source line from other lines', () => {
    for (const line of [
      '                                 ^',
      '%     | \t                                                        ^',
      '    |             ^^^^^^^^^^^^^^^^^^^^^^^^...',
      '      |   ^~~~~~',
      '    |         ^^ help: prefix it with an underscore',
    ])
      expect(isCaretLine(line)).toBe(true);
    for (const line of ['~/src/a.c', '   | ', '2 ^ 3 = 8', 'x ^ y', '      |        |', '^C'])
      expect(isCaretLine(line)).toBe(false);
  });

  it("brings the source line above a caret into an error's block, with or without a line number", () => {
    const erl = [
      "src/cow_http_hd.erl:257:58: variable 'Ps' is unbound",
      '%  257| \tmedia_range_param_sep(R, Acc, T, S, [{<<"charset">>, V}|Ps]);',
      '%     | \t                                                        ^',
      '',
    ];
    expect(
      blockOf(
        (n) => erl[n - 1],
        1,
        () => false,
      ),
    ).toEqual([2]);
    const html = [
      'modules.html:665: HTML parser error : Unexpected end tag : cod',
      'the <code>require.resolve()</cod> function.</p>',
      '                                 ^',
      'modules.html:784: HTML parser error : Tag section invalid',
    ];
    expect(
      blockOf(
        (n) => html[n - 1],
        1,
        (t) => t.startsWith('modules.html'),
      ),
    ).toEqual([2]);
  });

  it('shows the source line under a rare error in the middle of a long output', () => {
    const finding = (i: number) => [
      `docs/page${i % 40}.html:${i + 3}: HTML parser error : Tag section invalid`,
      `</section><section><h3>Heading number ${i}<span><a class="mark" href="#h${i}" id="h${i}">#</a></span></h3>`,
      '                  ^',
    ];
    const lines = [
      ...Array.from({ length: 1500 }, (_, i) => finding(i)).flat(),
      'docs/modules.html:665: HTML parser error : Unexpected end tag : cod',
      'the <code>require.resolve()</cod> function.</p>',
      '                                 ^',
      ...Array.from({ length: 1500 }, (_, i) => finding(i + 1500)).flat(),
    ];
    expect(lines.join('\n').length).toBeGreaterThan(300_000);
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('Unexpected end tag : cod');
    expect(out).toContain('the <code>require.resolve()</cod> function.</p>');
  });
});
