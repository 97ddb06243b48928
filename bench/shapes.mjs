// The five shapes of output the capture benchmarks measure (bench/cases/12-capture.mjs), made
// deterministically: a quiet log, one minified line, random bytes, random words, and
// warnings-heavy compiler output (real gcc output from bench/needles, varied).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

export const SHAPES = [
  'quiet log',
  'one minified line',
  'random bytes',
  'random words',
  'warnings-heavy compiler output',
];
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

/** Real gcc output (make -k over 60 files with warnings), without its error lines. */
const gcc = () =>
  readFileSync(join(ROOT, 'bench', 'needles', 'cases', 'make-k-warnings-one-error', 'output.txt'), 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !/error/i.test(l));

/** Writes `bytes` of a shape to `path`, a block at a time. */
export function writeShape(path, shape, bytes) {
  const next = prng(0x5eed + shape.length);
  const real = shape.startsWith('warnings') ? gcc() : [];
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
          else if (real.length > 0) {
            // Each round renames the files and shifts the line numbers, as a bigger project would.
            const round = Math.floor(n / real.length);
            s = `${real[n % real.length].replace(/src\/m(\d+)/g, (_, k) => `src/r${round % 997}/m${k}`).replace(/:(\d+):/g, (_, k) => `:${Number(k) + (round % 13)}:`)}\n`;
          } else if (shape === 'one minified line')
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
