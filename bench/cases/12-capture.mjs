// Capture throughput: `ctxwrap -- cat F` against `cat F | cat > file` (the same bytes through a
// pipe onto a file, nothing else), on five shapes of BENCH_MB (default 100) MB each: a quiet log,
// one minified line, random bytes, random words, and warnings-heavy compiler output (real gcc
// output from bench/needles, varied). Interleaved, one warm-up each, medians of
// BENCH_CAPTURE_RUNS (default 5); the figure is a throughput ratio (baseline time / ctxwrap's),
// with ctxwrap's peak RSS; a last row is the highest peak RSS of all shapes.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MB, CLI, fmtMiB, fmtMs, load, measure, median, tempDir } from '../lib.mjs';
import { SHAPES, writeShape } from '../shapes.mjs';

export const title = `capture: ${BENCH_MB} MB of five shapes, \`ctxwrap -- cat F\` vs \`cat F | cat > file\``;

const MB = BENCH_MB;
const RUNS = Number(process.env.BENCH_CAPTURE_RUNS ?? 5);
const BYTES = MB * 1000 * 1000;
/** The aims of issue 23, as throughput ratios. */
const AIM = { 'warnings-heavy compiler output': 0.15 };

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const rows = [];
    let highest = 0;
    for (const shape of SHAPES) {
      const input = join(dir, 'input');
      writeShape(input, shape, BYTES);
      const runDir = join(dir, 'run');
      const out = join(dir, 'out');
      const subjects = {
        ctxwrap: `${CLI} --run-dir ${runDir} -- cat ${input} > /dev/null`,
        baseline: `cat ${input} | cat > ${out}`,
      };
      const times = { ctxwrap: [], baseline: [] };
      let peakKiB = 0;
      for (let i = -1; i < RUNS; i++) {
        for (const [name, command] of Object.entries(subjects)) {
          rmSync(runDir, { recursive: true, force: true });
          rmSync(out, { force: true });
          mkdirSync(runDir, { recursive: true, mode: 0o700 });
          const m = measure(command);
          if (i < 0) continue; // warm-up
          times[name].push(m.ms);
          if (name === 'ctxwrap') peakKiB = Math.max(peakKiB, m.peakKiB);
        }
      }
      highest = Math.max(highest, peakKiB);
      const ms = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
      rows.push({
        benchmark: `capture ${MB} MB, ${shape}: \`ctxwrap -- cat F\` vs \`cat F | cat > file\``,
        subject: `${fmtMs(ms.ctxwrap)} (${(MB / (ms.ctxwrap / 1000)).toFixed(0)} MB/s)`,
        baseline: `${fmtMs(ms.baseline)} (${(MB / (ms.baseline / 1000)).toFixed(0)} MB/s)`,
        ratio: `${(ms.baseline / ms.ctxwrap).toFixed(2)}x throughput`,
        note: `median of ${RUNS} interleaved; peak RSS ${fmtMiB(peakKiB)}; aim ≥ ${AIM[shape] ?? 0.2}x; load ${load()}`,
      });
      rmSync(input, { force: true });
    }
    rows.push({
      benchmark: `peak RSS of ctxwrap over the ${MB} MB captures above`,
      subject: fmtMiB(highest),
      baseline: '-',
      ratio: '-',
      note: `the highest of every run and shape (/usr/bin/time %M); aim ≤ 150 MB; load ${load()}`,
    });
    return rows;
  } finally {
    cleanup();
  }
}
