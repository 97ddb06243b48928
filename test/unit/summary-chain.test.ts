import { describe, expect, it } from 'vitest';
import { chainAbove, notesUnder } from '../../src/summary/chain.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 900 };

const chain = [
  'In file included from ../test/options.cpp:6:',
  '../include/opts.hpp: In instantiation of ‘void parser(const std::string&, T&) [with T = std::pair<int, int>]’:',
  '../include/opts.hpp:1143:22:   required from ‘void parse_value(const std::string&, T&) [with T = std::pair<int, int>]’',
  '../include/opts.hpp:1263:14:   required from ‘void abstract_value<T>::add(const std::string&) const [with T = std::vector<std::pair<int, int> >]’',
  '../include/opts.hpp:1261:3:   required from here',
  '../include/opts.hpp:1095:6: error: no match for ‘operator>>’ (operand types are ‘std::stringstream’ and ‘std::pair<int, int>’)',
];

describe("the chain that leads to a compiler's error", () => {
  it('reads the nearest steps right above an error, and none across a blank line or a finding', () => {
    const at = (k: number) => chain[k - 1];
    expect(chainAbove(at, 6)).toEqual([4, 5]);
    const broken = ['x.cpp:3:1:   required from here', '', 'x.cpp:9:2: error: bad'];
    expect(chainAbove((k) => broken[k - 1], 3)).toEqual([]);
    const finding = ['x.cpp:3:1: warning: unused x', 'x.cpp:9:2: error: bad'];
    expect(chainAbove((k) => finding[k - 1], 2)).toEqual([]);
  });

  it("shows the use that made a library's template fail with the error", () => {
    const said = [
      'candidate: ‘operator>>(T#&)’',
      '  template argument deduction/substitution failed:',
      '  cannot convert ‘value’ (type ‘std::pair<int, int>’) to type ‘T#*’',
      '  mismatched types ‘T#’ and ‘std::pair<int, int>’',
      '  no known conversion for argument 1 from ‘std::pair<int, int>’ to ‘T#&’',
    ];
    const notes = Array.from(
      { length: 300 },
      (_, i) =>
        `/usr/include/c++/12/istream:${120 + i}:7: note: ${(said[i % 5] as string).replace('#', String(i))}`,
    );
    const lines = [
      ...Array.from(
        { length: 30 },
        (_, i) =>
          `[${i + 1}/40] c++ -Itest -I../include -fdiagnostics-color=always -Wall -Wextra -std=c++11 -O0 -g -c ../test/t${i}.cpp -o t${i}.o`,
      ),
      'FAILED: test/options_test.p/options.cpp.o',
      ...chain,
      ...notes,
      '/usr/include/c++/12/istream:1006:5: error: no type named ‘type’ in ‘struct std::enable_if<false, void>’',
      'ninja: build stopped: subcommand failed.',
    ];
    const out = summarize(lines.join('\n'), facts, { budget: 1200 });
    expect(out).toContain('error: no match for ‘operator>>’');
    expect(out).toContain('required from ‘void abstract_value<T>::add(const std::string&) const');
  });

  it("brings a warning's notes, past its code frame, up to the next finding", () => {
    const lines = [
      "src/c.c:2005:36: warning: 'memcpy' call operates on objects of type 'cJSON' [bugprone-sizeof]",
      '    memcpy(reference, item, sizeof(item));',
      '                      ~~~~         ^~~~',
      "src/c.c:2005:36: note: did you mean to dereference the argument to 'sizeof'?",
      '    memcpy(reference, item, sizeof(item));',
      'src/c.c:2195:68: warning: 2 adjacent parameters are easily swapped [bugprone-swappable]',
      'src/c.c:2195:70: note: the first parameter',
    ];
    const at = (k: number) => lines[k - 1];
    expect(notesUnder(at, 1)).toEqual([4]);
    expect(notesUnder(at, 6)).toEqual([7]);
    // A note elsewhere (the macro's definition) points away from the warning.
    const macro = [
      'llimits.h:127:26: warning: cast discards ‘const’ qualifier from pointer target type [-Wcast-qual]',
      '  127 | #define cast(t, exp)     ((t)(exp))',
      '      |                          ^',
      'llimits.h:130:25: note: in expansion of macro ‘cast’',
    ];
    expect(notesUnder((k) => macro[k - 1], 1)).toEqual([]);
  });

  it('shows the note under a rare warning among hundreds of alike ones', () => {
    const frame = ['    size_t i;', '           ^'];
    const said = [
      "variable name 'i' is too short, expected at least 3 characters [readability-identifier-length]",
      'macro argument should be enclosed in parentheses [bugprone-macro-parentheses]',
      'repeated branch in conditional chain [bugprone-branch-clone]',
      'duplicate include [readability-duplicate-include]',
      'function is within the recursive call chain [misc-no-recursion]',
      'statement should be inside braces [readability-braces-around-statements]',
    ];
    const lines = Array.from({ length: 400 }, (_, i) => [
      `src/cJSON.c:${100 + i}:16: warning: ${said[i % 6]}`,
      ...frame,
    ]).flat();
    lines.splice(
      600,
      0,
      "src/cJSON.c:2005:36: warning: 'memcpy' call operates on objects of type 'const cJSON' while the size is based on 'const cJSON *' [bugprone-sizeof-expression]",
      '    memcpy(reference, item, sizeof(item));',
      '                      ~~~~         ^~~~',
      "src/cJSON.c:2005:36: note: did you mean to dereference the argument to 'sizeof' (and multiply it by the number of elements)?",
      '    memcpy(reference, item, sizeof(item));',
      '                                   ^~~~',
    );
    const out = summarize(
      [...lines, '401 warnings generated.'].join('\n'),
      { ...facts, exitCode: 0 },
      { budget: 1200 },
    );
    expect(out).toMatch(/^604: src\/cJSON\.c:2005:36: note: did you mean to de/m);
  });
});
