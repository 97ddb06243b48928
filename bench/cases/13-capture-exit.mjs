// Issue 23: the time from a 33 MB/s writer's exit (100 MB of gcc output) to ctxwrap's exit,
// against the same writer into a file (`producer > file`), interleaved, medians. The writer
// records the wall-clock time of its exit; the harness the time its command returned.
// BENCH_EXIT_MB (default 100), BENCH_EXIT_RATE (MB/s, default 33), BENCH_EXIT_RUNS (default 3).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CLI, fmtMs, median, ROOT, tempDir } from '../lib.mjs';

export const title = "capture: a 33 MB/s writer's exit to ctxwrap's exit (issue 23)";

const MB = Number(process.env.BENCH_EXIT_MB ?? 100);
const RATE = Number(process.env.BENCH_EXIT_RATE ?? 33);
const RUNS = Number(process.env.BENCH_EXIT_RUNS ?? 3);

/** Writes FILE to stdout at RATE MB/s in 1 MiB steps, then its exit time (ms) to STAMP. */
const WRITER = `import { readFileSync, writeFileSync, writeSync } from 'node:fs';
const [file, rate, stamp] = process.argv.slice(2);
const data = readFileSync(file); const bps = Number(rate) * 1e6; const start = Date.now(); let off = 0;
const tick = () => {
  while (off < data.length && off < ((Date.now() - start) / 1000) * bps + (1 << 20)) {
    const end = Math.min(data.length, off + (1 << 20));
    for (let o = off; o < end; ) o += writeSync(1, data, o, end - o);
    off = end;
  }
  if (off >= data.length) { writeFileSync(stamp, String(Date.now())); process.exit(0); }
  setTimeout(tick, 5);
};
tick();
`;

/** gcc warnings (bench/needles), renamed and shifted round by round up to `bytes`. */
function gccOutput(bytes) {
  const real = readFileSync(
    join(ROOT, 'bench', 'needles', 'cases', 'make-k-warnings-one-error', 'output.txt'),
    'utf8',
  )
    .split('\n')
    .filter((l) => l !== '' && !/error/i.test(l));
  const parts = [];
  let size = 0;
  for (let round = 0; size < bytes; round++)
    for (const l of real) {
      const line = `${l.replace(/src\/m(\d+)/g, (_, n) => `src/r${round % 997}/m${n}`).replace(/:(\d+):/g, (_, n) => `:${Number(n) + (round % 13)}:`)}\n`;
      parts.push(line);
      size += line.length;
      if (size >= bytes) break;
    }
  return parts.join('');
}

/** Runs `command` (which runs the writer); returns [ms from the writer's exit to the end, total ms]. */
function afterExit(command, stamp) {
  rmSync(stamp, { force: true });
  const t0 = Date.now();
  const r = spawnSync('/bin/sh', ['-c', command], { stdio: 'ignore' });
  const end = Date.now();
  if (r.status !== 0) throw new Error(`benchmark command failed (${r.status}): ${command}`);
  return [end - Number(readFileSync(stamp, 'utf8')), end - t0];
}

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const input = join(dir, 'gcc.txt');
    writeFileSync(input, gccOutput(MB * 1e6));
    const writer = join(dir, 'writer.mjs');
    writeFileSync(writer, WRITER);
    const stamp = join(dir, 'stamp');
    const produce = `node ${writer} ${input} ${RATE} ${stamp}`;
    const runDir = join(dir, 'run');
    const subject = [];
    const base = [];
    const loads = [];
    for (let i = 0; i < RUNS; i++) {
      loads.push(loadavg()[0]);
      rmSync(runDir, { recursive: true, force: true });
      subject.push(afterExit(`node ${CLI} --run-dir ${runDir} -- ${produce} > /dev/null`, stamp));
      base.push(afterExit(`${produce} > ${join(dir, 'out')}`, stamp));
    }
    const after = median(subject.map((x) => x[0]));
    const baseAfter = median(base.map((x) => x[0]));
    return [
      {
        benchmark: `${MB} MB of gcc output at ${RATE} MB/s: writer's exit → ctxwrap's exit`,
        subject: fmtMs(after),
        baseline: `\`producer > file\`: ${fmtMs(baseAfter)}`,
        ratio: `${(after / Math.max(1, baseAfter)).toFixed(1)}x`,
        note: `median of ${RUNS}; whole run ${fmtMs(median(subject.map((x) => x[1])))} vs ${fmtMs(median(base.map((x) => x[1])))}; load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; aim ≤ 150 ms`,
      },
    ];
  } finally {
    cleanup();
  }
}
