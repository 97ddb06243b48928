// ctxwrap search over a run directory of 500 results (~100 MB of build logs, test runs, listings
// and service logs), each search a new process as an agent runs it, against grep -rniF of the
// same words over the same files. The first search builds the indexes: reported on its own.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fmtMiB, fmtMs, measure, sideBySide, tempDir } from '../lib.mjs';
import { makeSearchCorpus } from '../search-corpus.mjs';

export const title = 'search: 500 results, ~100 MB, cold process per search vs grep -rniF';

const QUERIES = [
  ['rare identifier', 'ECONNREFUSED'],
  ['medium word', 'deprecated'],
  ['common word', 'error'],
  ['three words', 'connection refused postgres'],
  ['absent word', 'zanzibar'],
];

function dirBytes(dir) {
  let n = 0;
  for (const name of readdirSync(dir)) n += statSync(join(dir, name)).size;
  return n;
}

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const made = makeSearchCorpus(dir, { results: 500, bytes: 100 * 1024 * 1024, seed: 42 });
    const bytes = made.reduce((a, b) => a + b.bytes, 0);
    const results = join(dir, 'tool_results');
    const search = (q) => `node ${CLI} search --run-dir ${dir} '${q}' >/dev/null`;
    // grep's output goes through a pipe: written to /dev/null, GNU grep stops at the first match.
    const grep = (q) => `grep -rniF '${q}' ${results} 2>/dev/null | cat >/dev/null`;
    const rows = [];

    const first = measure(search('ECONNREFUSED'), { allowFail: true });
    const firstGrep = measure(grep('ECONNREFUSED'), { allowFail: true });
    const indexBytes = dirBytes(join(dir, 'index'));
    rows.push({
      benchmark: 'search, first run (builds all 500 indexes)',
      subject: fmtMs(first.ms),
      baseline: fmtMs(firstGrep.ms),
      ratio: `${(first.ms / firstGrep.ms).toFixed(1)}x`,
      note: `index ${(indexBytes / 1048576).toFixed(1)} MiB on disk for ${(bytes / 1048576).toFixed(1)} MiB of output (${((100 * indexBytes) / bytes).toFixed(0)}%); peak ${fmtMiB(first.peakKiB)}`,
    });
    for (const [what, q] of QUERIES) {
      const r = sideBySide(search(q), grep(q), { runs: 7, allowFail: true });
      rows.push({
        benchmark: `search '${q}' (${what})`,
        subject: fmtMs(r.subjectMs),
        baseline: fmtMs(r.baselineMs),
        ratio: `${r.ratio.toFixed(2)}x`,
        note: `peak ${fmtMiB(r.subjectPeakKiB)} vs ${fmtMiB(r.baselinePeakKiB)}`,
      });
    }
    rows.push({
      benchmark: 'capture-time overhead of indexing',
      subject: '0',
      baseline: '-',
      ratio: '1.00x',
      note: 'indexes are built lazily by the first search that needs them; the capture path does not index',
    });
    return rows;
  } finally {
    cleanup();
  }
}
