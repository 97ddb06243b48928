// npm run bench [name-filter]: runs every bench/cases/*.mjs in order and prints one table.
// Each case exports `title` and `async run()` returning rows:
//   { benchmark, subject, baseline, ratio, note }  (ratio = subject time / baseline time, or as the note says)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

const filter = process.argv[2];
const dir = join(ROOT, 'bench', 'cases');
const files = readdirSync(dir).filter((f) => f.endsWith('.mjs') && (!filter || f.includes(filter))).sort();
const rows = [];
for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  process.stderr.write(`bench: ${mod.title ?? file} ...\n`);
  for (const row of await mod.run()) {
    rows.push(row);
    process.stderr.write(`  ${row.benchmark}: ${row.subject} vs ${row.baseline} → ${row.ratio}${row.note ? ` (${row.note})` : ''}\n`);
  }
}
console.log('| benchmark | ctxwrap | baseline | ratio | note |');
console.log('|---|---:|---:|---:|---|');
for (const r of rows) console.log(`| ${r.benchmark} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.note ?? ''} |`);
