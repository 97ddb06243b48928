// The chunking scenario of summary-chunking.test.ts (npm test) and summary-chunking-more.test.ts
// (npm run test:slow): the same outputs, chunked at random by different seeds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ctxwrap, tempDir } from '../support.js';

/** Writes a file to stdout in random chunk sizes (up to 96 KiB) with random pauses, from a seed. */
const CHUNKER = `const b=require("fs").readFileSync(process.argv[1]);let s=+process.argv[2],a=0;const r=()=>(s=(s*1103515245+12345)%2147483648)/2147483648;(function n(){while(a<b.length){const k=Math.max(1,Math.floor(r()**3*98304));const ok=process.stdout.write(b.subarray(a,a+=k));if(!ok){process.stdout.once("drain",n);return}if(r()<0.2){setTimeout(n,1);return}}})()`;

function outputs(dir: string): Record<string, string> {
  const seq = join(dir, 'seq.txt');
  writeFileSync(seq, `${Array.from({ length: 200_000 }, (_, i) => i + 1).join('\n')}\n`);
  const log = join(dir, 'log.txt');
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 3_000_000; i++) {
    const line =
      i % 997 === 0
        ? `2026-11-23T10:00:${String(i % 60).padStart(2, '0')}Z WARN [pool] slow query ${i} took ${i % 5000}ms`
        : i === 31_337
          ? 'ERROR [orders] order 31337 failed: division by zero'
          : `2026-11-23T10:00:${String(i % 60).padStart(2, '0')}Z INFO [worker-${i % 8}] request ${i} handled in ${i % 97}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  writeFileSync(log, `${lines.join('\n')}\n`);
  const listing = join(dir, 'paths.txt');
  writeFileSync(
    listing,
    `${Array.from({ length: 60_000 }, (_, i) => `./src/pkg${i % 300}/mod${i % 17}/file_${i}.ts`).join('\n')}\n`,
  );
  return { seq, log, listing };
}

/**
 * Runs seq 1 200000 (1.3 MB), a 3 MB log and a 60,000-path listing (1.9 MB) through ctxwrap, each
 * chunked by every seed in `seeds`, and expects one summary per output: outputs larger than the
 * 1 MiB pipe read and the 64 KiB kept ends, in chunks of up to 96 KiB with pauses.
 */
export async function sameSummaryInEveryChunking(seeds: number[]): Promise<void> {
  const dir = tempDir();
  for (const [name, file] of Object.entries(outputs(dir))) {
    const summaries = new Set<string>();
    for (const seed of seeds) {
      const runDir = join(dir, `${name}-${seed}`);
      const r = await ctxwrap(['--', 'node', '-e', CHUNKER, file, String(seed)], { runDir });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      // The first line names the result's id and the time it took: the rest is the summary.
      summaries.add(String(r.stdout).split('\n').slice(1).join('\n'));
    }
    expect([...summaries], name).toHaveLength(1);
    if (name === 'log') expect([...summaries][0]).toContain('order 31337 failed: division by zero');
  }
}
