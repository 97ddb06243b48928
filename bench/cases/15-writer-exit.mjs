// The wait after the command: a writer prints BENCH_MB (default 100) MB of compiler output (real
// gcc warnings from bench/needles, varied) at 33 MB/s, and notes the moment it exits; the figure
// is the time from then to ctxwrap's exit (`ctxwrap -- writer`: the summary printed, everything
// stored), against the same for `writer > file`. Interleaved, medians of BENCH_WRITER_RUNS
// (default 3). The aim is ≤ 150 ms: ctxwrap keeps up with the writer instead of starting after it.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MB, CLI, fmtMs, load, median, ROOT, tempDir } from '../lib.mjs';

export const title = `time from a 33 MB/s writer's exit (${BENCH_MB} MB) to ctxwrap's exit`;

const RUNS = Number(process.env.BENCH_WRITER_RUNS ?? 3);
const RATE = 33e6;

/** The writer: `node writer.mjs BYTES RATE STAMP` prints BYTES at RATE bytes/s, then writes its exit time to STAMP. */
function writeWriter(dir) {
  const lines = readFileSync(
    join(ROOT, 'bench', 'needles', 'cases', 'make-k-warnings-one-error', 'output.txt'),
    'utf8',
  )
    .split('\n')
    .filter((l) => l !== '');
  const path = join(dir, 'writer.mjs');
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';
const [bytes, rate, stamp] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const real = ${JSON.stringify(lines)};
const parts = [];
for (let n = 0, size = 0; size < 1 << 20; n++) {
  const round = Math.floor(n / real.length);
  const line = real[n % real.length].replace(/:(\\d+):/g, (_, k) => ':' + (Number(k) + (round % 13)) + ':') + '\\n';
  parts.push(line);
  size += line.length;
}
const block = Buffer.from(parts.join(''));
const start = performance.now();
let sent = 0;
function pump() {
  // As much as the rate allows by now, in slices of the block.
  const due = Math.min(bytes, Math.floor(((performance.now() - start) / 1000) * rate));
  while (sent < due) {
    const n = Math.min(due - sent, block.length - (sent % block.length));
    const ok = process.stdout.write(block.subarray(sent % block.length, (sent % block.length) + n));
    sent += n;
    if (!ok) return process.stdout.once('drain', pump);
  }
  if (sent < bytes) return setTimeout(pump, 5);
  process.stdout.end(() => {
    writeFileSync(stamp, String(performance.timeOrigin + performance.now()));
    process.exit(0);
  });
}
pump();
`,
  );
  return path;
}

/** Milliseconds from the writer's exit (its stamp) to the end of `command`. */
function afterExit(command, stamp) {
  rmSync(stamp, { force: true });
  const r = spawnSync('/bin/sh', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
  const end = performance.timeOrigin + performance.now();
  if (r.status !== 0) throw new Error(`writer bench: ${command} failed (${r.status}): ${r.stderr}`);
  return end - Number(readFileSync(stamp, 'utf8'));
}

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const writer = writeWriter(dir);
    const stamp = join(dir, 'stamp');
    const bytes = BENCH_MB * 1e6;
    const gen = `node ${writer} ${bytes} ${RATE} ${stamp}`;
    const subject = () => {
      rmSync(join(dir, 'run'), { recursive: true, force: true });
      return afterExit(`${CLI} --run-dir ${join(dir, 'run')} -- ${gen} > /dev/null`, stamp);
    };
    const baseline = () => afterExit(`${gen} > ${join(dir, 'out.txt')}`, stamp);
    const s = [];
    const b = [];
    for (let i = 0; i < RUNS; i++) {
      s.push(subject());
      b.push(baseline());
    }
    return [
      {
        benchmark: `time from a 33 MB/s writer's exit (${BENCH_MB} MB of compiler output) to ctxwrap's exit`,
        subject: fmtMs(median(s)),
        baseline: `writer > file: ${fmtMs(median(b))}`,
        ratio: `+${fmtMs(median(s) - median(b))}`,
        note: `medians of ${RUNS} interleaved; aim ≤ 150 ms; load ${load()}`,
      },
    ];
  } finally {
    cleanup();
  }
}
