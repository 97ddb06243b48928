import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

describe("a failing check's block", () => {
  it('comes with the check: the diff and the frame say why, the check alone says only which', () => {
    const passing = (n: number, from: number) =>
      Array.from(
        { length: n },
        (_, i) => `    ✔ when cli of case ${from + i} then suggest ${i % 5} (0.${(i * 37) % 100}ms)`,
      );
    const failure = (name: string, want: string, got: string, line: number) => [
      `    ✖ when cli of ${name} then suggest ${want} because sorted possibles (2.8ms)`,
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '      + actual - expected',
      '      ',
      `      + '${got}'`,
      `      - '${want}'`,
      '            ^',
      `          at TestContext.<anonymous> (file:///work/tests/help.suggestion.test.js:${line}:18)`,
      '          at Test.runInAsyncScope (node:async_hooks:206:9)',
      '          at Test.run (node:internal/test_runner/test:796:25)',
    ];
    const names = ['xat', 'yat', 'zat', 'wat', 'vat', 'uat', 'tat', 'sat'];
    const lines = [
      ...passing(100, 0),
      ...names.flatMap((name, i) => [
        ...failure(name, `b${name}, c${name}, r${name}`, `b${name}`, 70 + 20 * i),
        ...passing(60, 100 + 60 * i),
      ]),
      'ℹ tests 590',
      'ℹ pass 580',
      'ℹ fail 8',
    ];
    const text = summarize(`${lines.join('\n')}\n`, facts);
    // Eight failing checks: each comes with what its diff says, until the room runs out (the
    // third one's too, where each came alone past the second).
    for (const name of ['xat', 'yat', 'zat']) expect(text).toContain(`- 'b${name}, c${name}, r${name}'`);
  });
});
