// Issue 2: the cost every wrapped command pays (start-up is in 05-startup.mjs).
//  - throughput: capturing 1 GiB of log-like output against `cmd | cat > file`, with peak memory.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fmtMiB, fmtMs, sideBySide, tempDir } from '../lib.mjs';

export const title = 'capture: start-up and throughput';

const GIB = Number(process.env.BENCH_CAPTURE_BYTES ?? 1024 ** 3);

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
let left = ${GIB};
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
      `node ${CLI} --run-dir ${runDir} -- node ${gen} > /dev/null`,
      `node ${gen} | cat > ${out}`,
      {
        runs: 3,
      },
    );
    const mib = GIB / 1024 ** 2;
    return [
      {
        benchmark: `capture ${mib} MiB: \`ctxwrap -- gen\` vs \`gen | cat > file\``,
        subject: `${fmtMs(capture.subjectMs)} (${(mib / (capture.subjectMs / 1000)).toFixed(0)} MiB/s)`,
        baseline: `${fmtMs(capture.baselineMs)} (${(mib / (capture.baselineMs / 1000)).toFixed(0)} MiB/s)`,
        ratio: `${(1 / capture.ratio).toFixed(2)}x throughput`,
        note: `median of 3; ctxwrap peak RSS ${fmtMiB(capture.subjectPeakKiB)}; aim ≥ 0.6x`,
      },
    ];
  } finally {
    cleanup();
  }
}
