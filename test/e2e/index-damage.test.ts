// search's index files are a cache, never trusted: truncated, filled with garbage, zeroed, with
// bytes flipped, replaced by a link or a FIFO, they are rebuilt from the stored outputs and
// every search still finds what is there.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, tempDir } from '../support.js';

/** A run directory with `n` results, each with a unique token in the middle of 3,000 lines. */
async function withResults(n: number) {
  const runDir = tempDir();
  const runs = await Promise.all(
    Array.from({ length: n }, (_, k) =>
      ctxwrap(['-c', `seq -f 'row %g data' 1 1500; echo needle${k + 1}q; seq -f 'tail %g' 1 1500`], {
        runDir,
      }),
    ),
  );
  const ids = runs.map(
    (r) => (/^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(r.stdout as string) ?? [])[1] as string,
  );
  return { runDir, ids, index: join(runDir, 'index') };
}

/** Searches for token `i` and checks that the hit names its result and the line. */
async function expectFound(runDir: string, ids: string[], i: number) {
  const r = await ctxwrap(['search', `needle${i}q`], { runDir });
  expect(r.stderr, `needle${i}q`).toBe('');
  expect(r.exitCode, `needle${i}q`).toBe(0);
  expect(r.stdout).toContain(` ${ids[i - 1]} lines `);
  expect(r.stdout).toContain(`1501: needle${i}q\n`);
}

/** A deterministic PRNG (mulberry32), so that a failure can be replayed. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAMAGE: Record<string, (b: Buffer, rnd: () => number) => Buffer> = {
  'truncated to half': (b) => b.subarray(0, b.length >> 1),
  'truncated to its header': (b) => b.subarray(0, 40),
  'random garbage of the same size': (b, rnd) => Buffer.from(b.map(() => Math.floor(rnd() * 256))),
  zeroed: (b) => Buffer.alloc(b.length),
  '200 random bytes changed': (b, rnd) => {
    const c = Buffer.from(b);
    for (let k = 0; k < 200; k++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
    return c;
  },
  '200 bytes changed inside, header and trailer intact': (b, rnd) => {
    const c = Buffer.from(b);
    for (let k = 0; k < 200; k++) c[Math.floor(c.length * (0.1 + 0.8 * rnd()))] = Math.floor(rnd() * 256);
    return c;
  },
  empty: () => Buffer.alloc(0),
};

describe.concurrent('damaged search indexes are rebuilt, never trusted', () => {
  for (const [layout, n] of [
    ['a pack (8 results)', 8],
    ['loose .idx files (3 results)', 3],
  ] as const) {
    it(`${layout}: truncated, garbage, zeroed, bytes changed, emptied`, async () => {
      const { runDir, ids, index } = await withResults(n);
      await expectFound(runDir, ids, 1);
      let seed = 1;
      for (const [how, damage] of Object.entries(DAMAGE)) {
        const files = readdirSync(index).filter((f) => !f.includes('.tmp-'));
        expect(files.length, how).toBeGreaterThan(0);
        // Damage every index file there is, then rebuild it by searching.
        for (const f of files)
          writeFileSync(join(index, f), damage(readFileSync(join(index, f)), prng(seed++)));
        await expectFound(runDir, ids, 1 + (seed % n));
      }
    });
  }

  it('index files replaced by a link (to /etc/passwd) or a FIFO: no hang, nothing read through them', async () => {
    const { runDir, ids, index } = await withResults(3);
    await expectFound(runDir, ids, 1);
    const files = readdirSync(index).filter((f) => f.endsWith('.idx'));
    rmSync(join(index, files[0] as string));
    symlinkSync('/etc/passwd', join(index, files[0] as string));
    rmSync(join(index, files[1] as string));
    execFileSync('mkfifo', [join(index, files[1] as string)]);
    for (const i of [1, 2, 3]) await expectFound(runDir, ids, i);
    const root = await ctxwrap(['search', 'root'], { runDir });
    expect(root.stdout).not.toContain('root:x:0');
  });

  it('the index directory replaced by a link: searches still work, nothing is written through it', async () => {
    const { runDir, ids, index } = await withResults(3);
    const elsewhere = tempDir();
    rmSync(index, { recursive: true, force: true });
    symlinkSync(elsewhere, index);
    for (const i of [1, 3]) await expectFound(runDir, ids, i);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
