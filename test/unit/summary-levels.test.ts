import { describe, expect, it } from 'vitest';
import { hasLevelMark } from '../../src/summary/levels.js';
import { errorWordAt, scoreLine } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';
import { severity } from '../../src/summary/worth.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

describe('a log level in capitals inside a line', () => {
  const marked = [
    '[2026-11-26 02:19:00,124] ERROR in app: Exception on /2/update [POST]',
    '2026-11-26 09:26:46.948 UTC [20443] app@db ERROR:  new row violates check constraint "floor"',
    "    (1992, N'LERROR 1062 (23000) at line 1884: Duplicate entry '1499' for key 'PRIMARY'",
    '    (1, 245)ERROR 1452 (23000) at line 7144: Cannot add or update a child row',
    '12:00:01 worker-3 FATAL: cannot open the queue',
  ];
  const unmarked = [
    '==12== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)',
    'docs/ERROR.md',
    'static void on_ERROR (int code)',
    'the handler logs errors as they come',
    ';; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 4242',
    'ERRORS 3',
  ];

  it('is told from a name, a file, a heading and prose', () => {
    expect(marked.filter((l) => !hasLevelMark(l))).toEqual([]);
    expect(unmarked.filter((l) => hasLevelMark(l))).toEqual([]);
  });

  it('makes an error as severe in a run that succeeded as one at the start of a line', () => {
    // Before: an error word inside a line was weak, worth 0.4 of itself when the run exited 0,
    // and an error spliced into another stream's line (`N'LERROR`) was no error at all.
    for (const l of marked) {
      expect(scoreLine(l)).toEqual({ kind: 'error', score: 12 });
      expect(severity(l, true)).toBe(12);
    }
  });

  it('reads a field of data whose name says error, with a value, as an error', () => {
    const fields = [
      '\t\t\t"Err": "no required module provides package example.com/x/internal/tz; to add it:"',
      '\t"DepsErrors": [',
      '  "error": { "code": 42, "message": "quota exceeded" },',
      '  "lastError": "connection reset",',
    ];
    const empty = [
      '  "error": null,',
      '  "errors": [],',
      '  "Err": "",',
      '  "errors": 0,',
      '  "terror": "film"',
    ];
    for (const l of fields) expect(severity(l, true)).toBe(12);
    expect(empty.filter((l) => hasLevelMark(l))).toEqual([]);
  });

  it("reads a program's diagnostic (its name, then an error word) as an error", () => {
    const diagnostics = [
      'jq: error (at node_modules/x/package.json:35): string ("x") and array (["MIT"]) cannot be added',
      'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
      'collect2: error: ld returned 1 exit status',
    ];
    const settings = ['  log_level: error', 'level: error', 'onerror: errorHandler'];
    // Before, each was a weak error word: 4, and 1.6 in a run that exited 0.
    for (const l of diagnostics) expect(severity(l, true)).toBe(12);
    expect(settings.filter((l) => hasLevelMark(l))).toEqual([]);
  });

  it('cuts a long spliced line around its level, not its start', () => {
    const line = `    (${'7, 1234), ('.repeat(40)}1992, N'LERROR 1452 (23000) at line 7144: Cannot add a row`;
    expect(errorWordAt(line)).toBe(line.indexOf('ERROR'));
  });

  it('shows the error that stderr wrote into the middle of stdout, in a run that exited 0', () => {
    const rows = (from: number) =>
      Array.from({ length: 4000 }, (_, i) => `    (${from + i}, N'Track ${from + i}', ${i % 7}, 1, 0.99),`);
    const lines = [
      ...rows(1),
      "    (4001, N'LERROR 1062 (23000) at line 1884: Duplicate entry '1499' for key 'PRIMARY'",
      ...rows(4002),
      'Query OK, 8000 rows affected',
      'Bye',
    ];
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain("4001:     (4001, N'LERROR 1062 (23000) at line 1884: Duplicate entry");
  });
});
