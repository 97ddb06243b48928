// Measures the byte-ratio token estimator (src/tokens.ts) against a real tokenizer (o200k, via
// gpt-tokenizer) on the needle corpus: node scripts/token-accuracy.mjs [corpus-dir]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const dir = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'needles', 'cases');
const BYTES_PER_TOKEN = Number(
  /BYTES_PER_TOKEN = ([\d.]+)/.exec(
    readFileSync(join(import.meta.dirname, '..', 'src', 'tokens.ts'), 'utf8'),
  )[1],
);
let totalBytes = 0;
let totalTokens = 0;
const rows = [];
for (const name of readdirSync(dir).sort()) {
  const buf = readFileSync(join(dir, name, 'output.txt'));
  if (buf.includes(0)) continue; // binary: never printed, never tokenized
  const tokens = encode(buf.toString('utf8')).length;
  const estimate = Math.ceil(buf.length / BYTES_PER_TOKEN);
  totalBytes += buf.length;
  totalTokens += tokens;
  rows.push({ name, bytesPerToken: buf.length / tokens, error: (estimate - tokens) / tokens });
}
const errors = rows.map((r) => Math.abs(r.error)).sort((a, b) => a - b);
for (const r of rows)
  console.log(
    `${r.name.padEnd(28)} ${r.bytesPerToken.toFixed(2)} bytes/token  estimate ${(r.error * 100).toFixed(0)}%`,
  );
console.log(
  `corpus: ${(totalBytes / totalTokens).toFixed(2)} bytes/token; estimator ${BYTES_PER_TOKEN}: total error ${(((totalBytes / BYTES_PER_TOKEN - totalTokens) / totalTokens) * 100).toFixed(1)}%, median |error| ${(errors[Math.floor(errors.length / 2)] * 100).toFixed(0)}%, worst ${(errors.at(-1) * 100).toFixed(0)}%`,
);
