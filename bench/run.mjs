// npm run bench [name-filter...]: runs every bench/cases/*.mjs (or those whose name holds one of the filters) in order and prints one table, with
// the machine, the date and the load before and after. Each case exports `title` and
// `async run()` returning rows:
//   { benchmark, subject, baseline, ratio, note }  (ratio = subject time / baseline time, or as the note says)
// Everything a case needs is generated or in the repository (bench/needles). BENCH_MB (default
// 100) sizes the big cases: `BENCH_MB=5 npm run bench` tries them all quickly.
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_MB, load, ROOT } from './lib.mjs';

const filters = process.argv.slice(2);
const dir = join(ROOT, 'bench', 'cases');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
const rows = [];
const before = load();
for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  process.stderr.write(`bench: ${mod.title ?? file} ...\n`);
  for (const row of await mod.run()) {
    rows.push(row);
    process.stderr.write(
      `  ${row.benchmark}: ${row.subject} vs ${row.baseline} → ${row.ratio}${row.note ? ` (${row.note})` : ''}\n`,
    );
  }
}
console.log(
  `${new Date().toISOString()}; ${cpus().length} CPUs; Node ${process.version}; BENCH_MB=${BENCH_MB}; load before ${before}, after ${load()}\n`,
);
console.log('| benchmark | ctxwrap | baseline | ratio | note |');
console.log('|---|---:|---:|---:|---|');
for (const r of rows)
  console.log(`| ${r.benchmark} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.note ?? ''} |`);
