// Which windows get ranked: the scan's window lists choose a hundred or so (most query words and
// rare words first, then the windows nearest an output's first and last match), and the hits
// not shown are counted from the scan, not from those ranked.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, filler, frames, storeText, tempDir } from '../support.js';

/** 100 lines holding `timeout` once, 10 lines apart (no two in one window), then a dense block. */
function output(): string {
  const text: string[] = [];
  for (let i = 0; i < 100; i++) text.push(`request ${i} failed: timeout`, ...filler(9, i * 10));
  text.push(
    ...filler(9, 2000),
    'lock 7: timeout waiting (timeout 30s)',
    'lock 7: timeout again (timeout 60s)',
    'lock 7: timeout, giving up after timeout 3',
    ...filler(9, 3000),
  );
  return `${text.join('\n')}\n`;
}

describe('search candidates', () => {
  it('ranks a line repeating the word first even when it comes after a hundred others', async () => {
    const runDir = join(tempDir(), 'run');
    const id = await storeText(runDir, 'locks', output());
    const r = await ctxwrap(['search', '--run-dir', runDir, 'timeout', '--limit', '2']);
    expect(r.exitCode).toBe(0);
    const [first] = frames(r.stdout);
    expect(first).toMatchObject({ id });
    expect(first!.first).toBeLessThanOrEqual(1010);
    expect(first!.last).toBeGreaterThanOrEqual(1012);
    expect(r.stdout).toContain('1010: lock 7: timeout waiting (timeout 30s)');
  });

  it('counts the hits not shown from the whole scan, beyond the windows ranked', async () => {
    const runDir = join(tempDir(), 'run');
    await storeText(runDir, 'locks', output());
    const r = await ctxwrap(['search', '--run-dir', runDir, 'timeout', '--limit', '1']);
    expect(r.exitCode).toBe(0);
    expect(frames(r.stdout)).toHaveLength(1);
    // The dense block is the hit; the 100 single lines are 100 more (40 windows were ranked).
    expect(r.stdout).toMatch(/\n\[ctxwrap search\] 100 more hits: add words/);
  });

  it('finds a word in an output of one 3 MB line beside ordinary outputs (scanned in JS, issue 20 #13)', async () => {
    // The engine's early scan includes it; once the metadata says its lines are a MiB long on
    // average, the scan is started again without it and it is scanned in JS: both find it.
    const runDir = join(tempDir(), 'run');
    const long = await storeText(
      runDir,
      'bundle',
      `${'x'.repeat(1_500_000)} quokka ${'y'.repeat(1_500_000)}\n`,
    );
    const plain = await storeText(runDir, 'plain', `${filler(20).join('\n')}\nquokka registry down\n`);
    const r = await ctxwrap(['search', '--run-dir', runDir, 'quokka']);
    expect(r.exitCode).toBe(0);
    expect(
      frames(r.stdout)
        .map((f) => f.id)
        .sort(),
    ).toEqual([long, plain].sort());
    expect(r.stdout).toMatch(/x quokka y/);
    expect(r.stdout).toContain('21: quokka registry down');
  });
});
