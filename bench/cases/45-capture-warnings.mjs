// Issue 9: capture speed on compiler output where a third of the lines are warnings (every one
// of them passes the collector's guard), against `cat F | cat > file`, side by side. 100 MB by
// default (BENCH_WARNINGS_BYTES to change). The figure is a speed: baseline time / ctxwrap time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fmtMs, ROOT, sideBySide, tempDir } from '../lib.mjs';

export const title = 'capture: warnings-heavy compiler output vs cat | cat';

const BYTES = Number(process.env.BENCH_WARNINGS_BYTES ?? 100e6);

/** Real gcc output (bench/needles: make -k over 60 files with warnings), varied and repeated. */
function warningsOutput() {
  const real = readFileSync(
    join(ROOT, 'bench', 'needles', 'cases', 'make-k-warnings-one-error', 'output.txt'),
    'utf8',
  )
    .split('\n')
    .filter((l) => l !== '' && !/error/i.test(l));
  const parts = [];
  let size = 0;
  for (let round = 0; size < BYTES; round++) {
    // Each round renames the files and shifts the line numbers, as a bigger project would.
    for (const l of real) {
      const line = `${l.replace(/src\/m(\d+)/g, (_, n) => `src/r${round % 997}/m${n}`).replace(/:(\d+):/g, (_, n) => `:${Number(n) + (round % 13)}:`)}\n`;
      parts.push(line);
      size += line.length;
      if (size >= BYTES) break;
    }
  }
  return parts.join('');
}

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const file = join(dir, 'warnings.txt');
    const text = warningsOutput();
    writeFileSync(file, text);
    const lines = text.split('\n');
    const warnings = lines.filter((l) => l.includes('warning:')).length;
    const out = join(dir, 'out.txt');
    const r = sideBySide(
      `node ${CLI} --run-dir ${join(dir, 'run')} -- cat ${file} > /dev/null`,
      `cat ${file} | cat > ${out}`,
      {
        runs: 3,
      },
    );
    const mb = Buffer.byteLength(text) / 1e6;
    return [
      {
        benchmark: `capture ${mb.toFixed(0)} MB of gcc output, ${((100 * warnings) / lines.length).toFixed(0)}% warning lines`,
        subject: `${fmtMs(r.subjectMs)} (${(mb / (r.subjectMs / 1000)).toFixed(0)} MB/s)`,
        baseline: `cat | cat: ${fmtMs(r.baselineMs)}`,
        ratio: `${(r.baselineMs / r.subjectMs).toFixed(2)}x speed`,
        note: 'medians of 3 interleaved runs; target >= 0.4x',
      },
    ];
  } finally {
    cleanup();
  }
}
