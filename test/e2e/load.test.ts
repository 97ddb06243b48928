// Load: many ctxwrap processes at once against one run directory, with readers beside them.
// The harness is bench/stress.mjs (full size: npm run bench:stress); here at a size that keeps
// the suite fast on a 2-core machine, asserting its report field by field.
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support.js';

describe('load', () => {
  it('32 processes × 256 KiB at once, readers alongside: every byte, status and result accounted for', async () => {
    const r = await execa(
      'node',
      [join(ROOT, 'bench', 'stress.mjs'), '--procs', '32', '--kb', '256', '--json', '--no-empty-lines'],
      { reject: false },
    );
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      procs: 32,
      wrongExit: 0,
      wrongChecksum: 0,
      missing: 0,
      notComplete: 0,
      halfWritten: 0,
      lost: 0,
      readerFailures: [],
    });
    expect(report.totalBytes).toBeGreaterThan(32 * 256 * 1024);
    for (const command of report.commands) expect(report.readerCalls[command], command).toBeGreaterThan(0);
    expect(report.commands).toEqual(expect.arrayContaining(['show', 'read', 'list', 'search', 'clean']));
    expect(report.listed).toBe(32);
    expect(report.searched).toBe(32);
    expect(report.oldCleaned).toEqual({ removed: 5, of: 5, newKept: 32 });
    expect(r.exitCode).toBe(0);
  });
});
