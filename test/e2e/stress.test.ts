// Fifty ctxwrap processes write to one run directory at once while others list, read, note
// and clean it: nothing may be lost or corrupted.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs fixture script, without types
import { seededOutput } from '../../fixtures/scripts/seeded-output.mjs';
import { ago, ctxwrap, type Ran, script, tempDir, writeResult } from '../support.js';

const WRITERS = 50;
const OLD = 20;
/** Each writer prints its output in four parts this far apart, so that all fifty overlap. */
const PAUSE_MS = 500;
/** How many of each other command run side by side with the writers. */
const SIDE_BY_SIDE = 2;
const linesOf = (seed: number) => 150 + ((seed * 37) % 400);
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

interface Listed {
  id: string;
  state: string;
  exitCode?: number;
  note?: string;
  bytes: number;
}

describe('50 writers at once, with list, read, note and clean running', () => {
  it('loses and corrupts nothing', async () => {
    const dir = join(tempDir(), 'run');
    for (let k = 0; k < OLD; k++)
      writeResult(dir, `old_${String(k).padStart(8, '0')}`, 'stale\n', { startedAt: ago(30 * 86_400_000) });

    const writers = Array.from({ length: WRITERS }, (_, k) => {
      const seed = k + 1;
      const args = [script('seeded-output.mjs'), String(seed), String(linesOf(seed)), String(PAUSE_MS)];
      return { seed, ran: ctxwrap(['--run-dir', dir, '--', process.execPath, ...args]) };
    });
    let writing = true;
    const all = Promise.all(writers.map((w) => w.ran)).finally(() => {
      writing = false;
    });

    const others: { what: string; ran: Ran }[] = [];
    const noted = new Set<string>();
    const listOnce = async () => {
      const ran = await ctxwrap(['list', '--json', '--run-dir', dir]);
      others.push({ what: 'list', ran });
      return ran.exitCode === 0 ? (JSON.parse(ran.stdout) as Listed[]) : [];
    };
    const loop = async (step: (i: number) => Promise<void>) => {
      for (let i = 0; writing; i++) await step(i);
    };
    const times = <T>(make: () => T): T[] => Array.from({ length: SIDE_BY_SIDE }, make);
    await Promise.all([
      all,
      ...times(() =>
        loop(async () => {
          await listOnce();
        }),
      ),
      ...times(() =>
        loop(async (i) => {
          const list = await listOnce();
          const pick = list[i % Math.max(1, list.length)];
          if (!pick) return;
          const spec = i % 2 ? 'grep:/[a-f]{4}\\d/i' : 'last:5';
          others.push({
            what: 'read',
            ran: await ctxwrap(['read', '--run-dir', dir, pick.id, '--lines', spec]),
          });
        }),
      ),
      ...times(() =>
        loop(async () => {
          const picks = (await listOnce())
            .filter((r) => r.state === 'running' && !noted.has(r.id))
            .slice(0, 3);
          await Promise.all(
            picks.map(async (pick) => {
              const ran = await ctxwrap([
                'note',
                '--run-dir',
                dir,
                pick.id,
                `noted while running ${pick.id}`,
              ]);
              others.push({ what: 'note', ran });
              if (ran.exitCode === 0) noted.add(pick.id);
            }),
          );
        }),
      ),
      ...times(() =>
        loop(async (i) => {
          others.push({
            what: 'clean',
            ran: await ctxwrap(['clean', '--run-dir', dir, ...(i % 2 ? ['--older-than', '1d'] : [])]),
          });
        }),
      ),
    ]);

    // Every writer: its exit code, its id, and exactly its bytes on disk.
    const ids = new Map<string, number>();
    for (const w of writers) {
      const ran = await w.ran;
      expect(ran.exitCode, ran.stderr).toBe(w.seed % 4);
      expect(ran.stderr).toBe('');
      const id = /^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\] exit (\d+) /.exec(ran.stdout)?.[1];
      expect(id, ran.stdout).toBeDefined();
      ids.set(id as string, w.seed);
    }
    expect(ids.size).toBe(WRITERS);
    const results = join(dir, 'tool_results');
    for (const [id, seed] of ids) {
      const expected = seededOutput(seed, linesOf(seed)) as string;
      expect(sha(readFileSync(join(results, `${id}.txt`))), id).toBe(sha(expected));
      const meta = JSON.parse(readFileSync(join(results, `${id}.json`), 'utf8'));
      expect(meta).toMatchObject({
        id,
        state: 'complete',
        exitCode: seed % 4,
        bytes: Buffer.byteLength(expected),
        lines: linesOf(seed),
      });
      expect(readFileSync(join(results, `${id}.summary.txt`), 'utf8')).toMatch(
        new RegExp(`^\\[ctxwrap ${id}\\] exit ${seed % 4} `),
      );
    }

    // The registry lists every one of them, none of the stale ones, and every note set meanwhile.
    const final = JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout) as Listed[];
    expect(final.map((r) => r.id).sort()).toEqual([...ids.keys()].sort());
    for (const r of final) {
      expect(r.state).toBe('complete');
      expect(r.exitCode).toBe((ids.get(r.id) as number) % 4);
      if (noted.has(r.id)) expect(r.note).toBe(`noted while running ${r.id}`);
    }
    expect(noted.size).toBeGreaterThan(0);
    expect(readdirSync(results).filter((f) => f.includes('.tmp-') || f.startsWith('old_'))).toEqual([]);

    // The others never failed but for a result cleaned away between their list and their read.
    const counts: Record<string, number> = {};
    for (const { what, ran } of others) {
      counts[what] = (counts[what] ?? 0) + 1;
      if (what === 'read' && ran.exitCode === 1)
        expect(ran.stderr).toMatch(/^ctxwrap: no (stored output for|result) 'old_\d{8}'/);
      else expect({ what, code: ran.exitCode, stderr: ran.stderr }).toEqual({ what, code: 0, stderr: '' });
    }
    expect(Object.keys(counts).sort()).toEqual(['clean', 'list', 'note', 'read']);
    for (const line of readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n')) {
      expect(JSON.parse(line)).toMatchObject({ kind: 'read', bytes: expect.any(Number) });
    }
  });
});
