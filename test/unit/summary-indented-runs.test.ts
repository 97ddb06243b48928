import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };

/** Syllables of made-up words: each dumped field a word, its own template, as a struct's fields are. */
const SYL = ['ka', 'lo', 'mi', 'ne', 'pu', 'ri', 'so', 'tu', 'va', 'ze'];
const word = (i: number) => `${SYL[i % 10]}${SYL[Math.floor(i / 10) % 10]}${SYL[(i * 7 + 3) % 10]}`;

describe('a long indented run, as one block', () => {
  it('cannot fill the room with its singleton lines while failures wait', () => {
    // Four failures' dumps of 150 fields each, every field a template of its own, then the
    // eight failing tests' names.
    const dump = (t: number) => [
      `    case_test.go:${t}6: Diff:`,
      '        got:',
      ...Array.from({ length: 150 }, (_, i) => `          ${word(i + 100 * t)}Field: ${i},`),
      '',
    ];
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel'];
    const out = summarize(
      [
        ...names.flatMap((n, t) => [`=== RUN   Test${n}`, ...(t < 4 ? dump(t) : [])]),
        ...names.map((n) => `    --- FAIL: TestAll/${n} (0.00s)`),
        'FAIL',
      ].join('\n'),
      facts,
      { budget: 3000 },
    );
    for (const n of names) expect(out).toContain(`--- FAIL: TestAll/${n} (0.00s)`);
  });

  it("keeps the record under an output's one error: no other block waits", () => {
    const valid = (from: number) =>
      Array.from({ length: 300 }, (_, i) => `data/${word(from + i)}.json valid`);
    const record = (k: number) => [
      '  {',
      `    instancePath: '/a/b/${word(k)}/version_added',`,
      `    schemaPath: '#/properties/version_added/anyOf/${k}/type',`,
      `    keyword: '${word(k + 50)}',`,
      `    params: { type: '${word(k + 60)}' },`,
      `    message: 'must be ${word(k + 70)}'`,
      '  },',
    ];
    const out = summarize(
      [
        ...valid(0),
        'data/overscroll.json invalid',
        '[',
        ...[0, 1, 2, 3].flatMap(record),
        ']',
        ...valid(300),
      ].join('\n'),
      facts,
      { budget: 3000 },
    );
    expect(out).toContain(`message: 'must be ${word(70)}'`);
    expect(out).toContain(`instancePath: '/a/b/${word(0)}/version_added'`);
  });
});
