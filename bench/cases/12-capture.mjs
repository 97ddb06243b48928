// Issue 10: capture throughput now that the command writes the result file itself and ctxwrap
// follows it. Four 100 MB shapes (a quiet log, one minified line, random bytes, random words):
// `ctxwrap -- cat F` against `cat F | cat > new-file`, interleaved, medians, with ctxwrap's peak
// RSS. A third subject is the floor of a Node wrapper of this design: a script that spawns `cat F`
// onto a file and reads the file into a reused buffer, nothing more (see writeFloor).
// BENCH_CAPTURE_MB (default 100) and BENCH_CAPTURE_RUNS (default 5) change the size and runs.
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CLI, fmtMiB, fmtMs, measure, median, tempDir } from '../lib.mjs';

export const title = 'capture: the command writes the file, ctxwrap follows it (issue 10)';

const MB = Number(process.env.BENCH_CAPTURE_MB ?? 100);
const RUNS = Number(process.env.BENCH_CAPTURE_RUNS ?? 5);
const BYTES = MB * 1000 * 1000;

/** A small deterministic PRNG (xorshift32), so that every run measures the same bytes. */
function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

const WORDS =
  'the of and to in is was for on that with as by at from this be are or an it not which have has had were but all can more one new its also been than they into only other some time two may after used first such most over these well any'.split(
    ' ',
  );

/** Writes `bytes` of a shape to `path`, a block at a time. */
function writeShape(path, shape, bytes) {
  const next = prng(0x5eed + shape.length);
  const fd = openSync(path, 'w');
  try {
    let left = bytes;
    let n = 0;
    while (left > 0) {
      let block;
      if (shape === 'random bytes') {
        block = Buffer.allocUnsafe(1 << 20);
        for (let i = 0; i < block.length; i += 4) block.writeUInt32LE(next(), i);
      } else {
        const parts = [];
        for (let size = 0; size < 1 << 20; ) {
          let s;
          if (shape === 'quiet log')
            s = `[${String(n).padStart(7, '0')}] compiling unit ${n} of the build, all fine so far\n`;
          else if (shape === 'one minified line')
            s = `function f${n}(a,b){return a*${n % 97}+b.map(x=>x+${n % 13}).join(",")};var v${n}=f${n}(${n},[1,2,3]);`;
          else {
            const words = [];
            const count = 3 + (next() % 14);
            for (let w = 0; w < count; w++) words.push(WORDS[next() % WORDS.length]);
            s = `${words.join(' ')}\n`;
          }
          n++;
          parts.push(s);
          size += s.length;
        }
        block = Buffer.from(parts.join(''));
      }
      const chunk = block.subarray(0, Math.min(block.length, left));
      for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off, chunk.length - off);
      left -= chunk.length;
    }
    if (shape === 'one minified line') writeSync(fd, '\n');
  } finally {
    closeSync(fd);
  }
}

/**
 * The floor of any Node wrapper built this way: a script that spawns `cat F` with its output on a
 * file and reads the file as it grows into one reused buffer, and does nothing else (no summary,
 * no metadata). What ctxwrap takes beyond it is its own work.
 */
function writeFloor(dir) {
  const path = join(dir, 'floor.cjs');
  writeFileSync(
    path,
    `const { spawn } = require('node:child_process');
const { closeSync, openSync, readSync } = require('node:fs');
const [input, out] = process.argv.slice(2);
const w = openSync(out, 'w');
const r = openSync(out, 'r');
const child = spawn('cat', [input], { stdio: ['ignore', w, w] });
closeSync(w);
const buf = Buffer.allocUnsafe(1 << 20);
let pos = 0;
const pump = () => { for (let n; (n = readSync(r, buf, 0, buf.length, pos)) > 0; ) pos += n; };
const timer = setInterval(pump, 1);
child.on('exit', () => { clearInterval(timer); pump(); process.stdout.write(pos + ' bytes\\n'); });
`,
  );
  return path;
}

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const floor = writeFloor(dir);
    const rows = [];
    for (const shape of ['quiet log', 'one minified line', 'random bytes', 'random words']) {
      const input = join(dir, 'input');
      writeShape(input, shape, BYTES);
      const runDir = join(dir, 'run');
      const out = join(dir, 'out');
      const subjects = {
        ctxwrap: `node ${CLI} --run-dir ${runDir} -- cat ${input} > /dev/null`,
        floor: `node ${floor} ${input} ${out}.floor > /dev/null`,
        baseline: `cat ${input} | cat > ${out}`,
      };
      const times = { ctxwrap: [], floor: [], baseline: [] };
      let peakKiB = 0;
      for (let i = -1; i < RUNS; i++) {
        for (const [name, command] of Object.entries(subjects)) {
          rmSync(runDir, { recursive: true, force: true });
          rmSync(out, { force: true });
          rmSync(`${out}.floor`, { force: true });
          mkdirSync(runDir, { recursive: true, mode: 0o700 });
          const m = measure(command);
          if (i < 0) continue; // warm-up
          times[name].push(m.ms);
          if (name === 'ctxwrap') peakKiB = Math.max(peakKiB, m.peakKiB);
        }
      }
      const ms = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
      rows.push({
        benchmark: `capture ${MB} MB, ${shape}: \`ctxwrap -- cat F\` vs \`cat F | cat > file\``,
        subject: `${fmtMs(ms.ctxwrap)} (${(MB / (ms.ctxwrap / 1000)).toFixed(0)} MB/s)`,
        baseline: `${fmtMs(ms.baseline)} (${(MB / (ms.baseline / 1000)).toFixed(0)} MB/s)`,
        ratio: `${(ms.baseline / ms.ctxwrap).toFixed(2)}x throughput`,
        note: `median of ${RUNS}; peak RSS ${fmtMiB(peakKiB)}; floor (Node spawning cat to a file and reading it, nothing else) ${fmtMs(ms.floor)} (${(ms.baseline / ms.floor).toFixed(2)}x); load ${loadavg()[0].toFixed(1)}; aim ≥ 0.6x, RSS ≤ 150 MB`,
      });
      rmSync(input, { force: true });
    }
    return rows;
  } finally {
    cleanup();
  }
}
