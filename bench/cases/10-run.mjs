// Capture of 1 GB of a quiet log (10 x BENCH_MB MB; a warning every 97 lines) written by a fast
// producer: `ctxwrap -- gen` against `gen | cat > file`, interleaved, medians of 3, with peak RSS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MB, CLI, fmtMiB, fmtMs, load, sideBySide, tempDir } from '../lib.mjs';

export const title = `capture: ${BENCH_MB * 10} MB of a quiet log from a fast producer`;

const BYTES = BENCH_MB * 10 * 1e6;

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const runDir = join(dir, 'run');
    // A producer that writes log-like lines fast: a 1 MiB block of varied lines, repeated.
    const gen = join(dir, 'gen.mjs');
    writeFileSync(
      gen,
      `const lines = [];
for (let i = 0, size = 0; size < 1 << 20; i++) {
  const line = i % 97 === 0 ? \`src/module\${i}.c:\${i}:7: warning: unused variable 'tmp\${i}'\\n\` : \`[\${String(i).padStart(6, '0')}] compiling unit \${i} of the build, all fine so far\\n\`;
  lines.push(line);
  size += line.length;
}
const block = Buffer.from(lines.join(''));
let left = ${BYTES};
function pump() {
  while (left > 0) {
    const chunk = left >= block.length ? block : block.subarray(0, left);
    left -= chunk.length;
    if (!process.stdout.write(chunk)) return process.stdout.once('drain', pump);
  }
}
pump();
`,
    );
    const out = join(dir, 'out.txt');
    const capture = sideBySide(
      `${CLI} --run-dir ${runDir} -- node ${gen} > /dev/null`,
      `node ${gen} | cat > ${out}`,
      {
        runs: 3,
      },
    );
    const mb = BYTES / 1e6;
    return [
      {
        benchmark: `capture ${mb} MB of a quiet log: \`ctxwrap -- gen\` vs \`gen | cat > file\``,
        subject: `${fmtMs(capture.subjectMs)} (${(mb / (capture.subjectMs / 1000)).toFixed(0)} MB/s)`,
        baseline: `${fmtMs(capture.baselineMs)} (${(mb / (capture.baselineMs / 1000)).toFixed(0)} MB/s)`,
        ratio: `${(1 / capture.ratio).toFixed(2)}x throughput`,
        note: `median of 3 interleaved; ctxwrap peak RSS ${fmtMiB(capture.subjectPeakKiB)}; load ${load()}`,
      },
    ];
  } finally {
    cleanup();
  }
}
