import { describe, expect, it } from 'vitest';
import { cutAround } from '../../src/summary/lines.js';
import { errorWordAt } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

/** A JSON log record whose level and message sit past the usual cut's start. */
const record = (n: number, level: string, message: string, statement: string) =>
  `{"timestamp":"2026-11-26 16:29:13.${String(n).padStart(3, '0')} UTC","user":"postgres","dbname":"chinook","pid":22591,"remote_host":"[local]","session_id":"6b085e59.583f","line_num":${n},"ps":"idle","session_start":"2026-11-26 16:29:13 UTC","vxid":"4/${n}","txid":0,"client":"psql 16.4 on x86_64-pc-linux-gnu","error_severity":"${level}","message":"${message}","statement":"${statement}","application_name":"psql","backend_type":"client backend","query_id":0}`;

describe('a long line of the head or tail with an error deep inside', () => {
  it('is cut to its start, the part from its error on, and its end', () => {
    const line = record(
      13,
      'ERROR',
      'column \\"artsit_id\\" referenced in foreign key constraint does not exist',
      `${'x'.repeat(600)} REFERENCES artist (artsit_id);`,
    );
    const cut = cutAround(line, 480, errorWordAt(line));
    expect(cut.length).toBeLessThanOrEqual(480);
    expect(cut.startsWith('{"timestamp":"2026-11-26 16:29:13.013 UTC"')).toBe(true);
    expect(cut).toContain(
      '"error_severity":"ERROR","message":"column \\"artsit_id\\" referenced in foreign key',
    );
    expect(cut.endsWith('"backend_type":"client backend","query_id":0}')).toBe(true);
  });

  it('shows its error in the summary, not only its start and end', () => {
    const lines = Array.from({ length: 60 }, (_, i) =>
      i === 12
        ? record(
            i,
            'ERROR',
            'column \\"artsit_id\\" referenced in foreign key constraint does not exist',
            'ALTER TABLE album',
          )
        : record(i, 'LOG', `statement: CREATE INDEX idx_${i} ON t${i} (c${i})`, `${'y'.repeat(400 + i)}`),
    );
    const out = summarize(lines.join('\n'), facts, { budget: 3000 });
    // Before, a held line was cut to its start and end, and its error was left out.
    expect(out).toContain('"error_severity":"ERROR","message":"column \\"artsit_id\\" referenced');
  });
});
