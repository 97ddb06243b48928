// How close estimateTokens (src/tokens.ts) comes to a real tokenizer (o200k_base, via the
// gpt-tokenizer dev dependency) on the shared needle corpus, per case and overall:
//   node scripts/token-accuracy.mjs [path/to/needles]
// Run after `npm run build` (it imports the estimator from dist/index.js).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens } from '../dist/index.js';

const corpus = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'needles');
const cases = readdirSync(join(corpus, 'cases')).sort();
let realTotal = 0;
let estimatedTotal = 0;
const errors = [];
console.log('| case | bytes | o200k tokens | estimated | error |');
console.log('|---|---:|---:|---:|---:|');
for (const name of cases) {
  const bytes = readFileSync(join(corpus, 'cases', name, 'output.txt'));
  const real = encode(bytes.toString('utf8')).length;
  const estimated = estimateTokens(bytes.length);
  const error = (estimated - real) / Math.max(1, real);
  realTotal += real;
  estimatedTotal += estimated;
  errors.push(Math.abs(error));
  console.log(`| ${name} | ${bytes.length} | ${real} | ${estimated} | ${(error * 100).toFixed(1)}% |`);
}
errors.sort((a, b) => a - b);
const pct = (x) => `${(x * 100).toFixed(1)}%`;
console.log(
  `\nall ${cases.length} cases: ${realTotal} real tokens, ${estimatedTotal} estimated (${pct((estimatedTotal - realTotal) / realTotal)}); ` +
    `per case: median |error| ${pct(errors[Math.floor(errors.length / 2)])}, worst ${pct(errors[errors.length - 1])}`,
);
