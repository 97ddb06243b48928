// Start-up, the cost every wrapped command pays: `ctxwrap -- true` against `node -e 0` (bare
// Node start-up), each spawned directly (no shell, no time(1)) with its output on a pipe, as an
// agent runs it: bin/ctxwrap.js executed as a program (its sh lines, then node), node as found
// on PATH, both in this machine's environment (NODE_EXTRA_CA_CERTS as it is set or not);
// alternated, one warm-up each, medians of BENCH_STARTUP_RUNS (default 15) runs.
//   node bench/cases/05-startup.mjs     prints the row on its own (npm run bench 05 in the table)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, fmtMs, load, median, tempDir } from '../lib.mjs';

export const title = 'start-up: `ctxwrap -- true` vs `node -e 0`';

/** Wall time of one run, in ms; throws when the command fails. */
function timed([file, ...args], env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`start-up bench: ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

export async function run() {
  const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
  const { dir, cleanup } = tempDir();
  try {
    const env = { ...process.env, CTXWRAP_RUN_DIR: join(dir, 'run') };
    const subject = [CLI, '--', 'true'];
    const baseline = ['node', '-e', '0'];
    timed(subject, env);
    timed(baseline, env);
    const s = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      s.push(timed(subject, env));
      b.push(timed(baseline, env));
    }
    const ratio = median(s) / median(b);
    return [
      {
        benchmark: 'start-up: `ctxwrap -- true` vs `node -e 0`',
        subject: fmtMs(median(s)),
        baseline: fmtMs(median(b)),
        ratio: `${ratio.toFixed(2)}x time`,
        note: `median of ${runs} interleaved; aim ≤ 1.05x; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}; ${process.version}; load ${load()}`,
      },
    ];
  } finally {
    cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  for (const row of await run())
    console.log(`${row.benchmark}: ${row.subject} vs ${row.baseline} → ${row.ratio} (${row.note})`);
