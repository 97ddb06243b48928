// ctxwrap search over a run directory of 500 results (BENCH_MB, default 100, MB of build logs,
// test runs, listings and service logs, generated from bench/needles), each search a new process
// as an agent runs it, against grep -rniF of the same words over the same files. Search keeps no index: the first search of fresh results and
// a warm repeat do the same work. "First" is measured on corpora never searched (a new one per
// run, ctxwrap and grep alternating which goes first on its own fresh corpus); "warm" repeats on
// one corpus. Medians of interleaved runs; the load average is quoted with the figures.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MB, CLI, load, measure, median, sideBySide, tempDir } from '../lib.mjs';
import { makeSearchCorpus } from '../search-corpus.mjs';

export const title = `search: 500 results, ${BENCH_MB} MB, a new process per search vs grep -rniF`;

const QUERIES = [
  ['rare word', 'ECONNREFUSED'],
  ['three words', 'connection refused postgres'],
  ['absent word', 'zanzibar'],
  ['common word', 'error'],
];
const FIRST_RUNS = Number(process.env.BENCH_SEARCH_FIRST_RUNS ?? 3);
const WARM_RUNS = Number(process.env.BENCH_SEARCH_WARM_RUNS ?? 7);

const search = (dir, q) => `${CLI} search --run-dir ${dir} '${q}' >/dev/null`;
// grep's output goes through a pipe: written to /dev/null, GNU grep stops at the first match.
const grep = (dir, q) => `grep -rniF '${q}' ${join(dir, 'tool_results')} 2>/dev/null | cat >/dev/null`;

function tree(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name !== 'ledger.jsonl') out.set(p, `${st.size}/${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

const row = (benchmark, s, b, note) => ({
  benchmark,
  subject: `${s.toFixed(0)} ms`,
  baseline: `${b.toFixed(0)} ms`,
  ratio: `${(s / b).toFixed(2)}x`,
  note,
});

export async function run() {
  const rows = [];
  const { dir: root, cleanup } = tempDir();
  try {
    // First search over fresh results: each run on a corpus of its own, made just before.
    const first = QUERIES.map(() => ({ s: [], b: [] }));
    for (let k = 0; k < FIRST_RUNS; k++) {
      const pair = [join(root, `fresh-${k}-a`), join(root, `fresh-${k}-b`)];
      for (const d of pair)
        makeSearchCorpus(d, { results: 500, bytes: BENCH_MB * 1024 * 1024, seed: 42 + k });
      // The 200 MB just written are flushed first: the kernel writing them back in the middle of
      // a measurement would time the disk, not the search (outputs are captured over time).
      spawnSync('sync');
      QUERIES.forEach(([, q], i) => {
        // Alternate which of the two goes first on its own fresh corpus.
        const [sd, bd] = (k + i) % 2 === 0 ? pair : [pair[1], pair[0]];
        first[i].s.push(measure(search(sd, q), { allowFail: true }).ms);
        first[i].b.push(measure(grep(bd, q), { allowFail: true }).ms);
      });
    }
    QUERIES.forEach(([what, q], i) => {
      const note = `medians of ${FIRST_RUNS}; aim ≤ 1.2x; load ${load()}`;
      rows.push(
        row(
          `search '${q}' (${what}), first search of fresh results`,
          median(first[i].s),
          median(first[i].b),
          note,
        ),
      );
    });
    // Warm repeats on one corpus; nothing may be written by a search.
    const warm = join(root, 'fresh-0-a');
    const before = tree(warm);
    for (const [what, q] of QUERIES) {
      const r = sideBySide(search(warm, q), grep(warm, q), { runs: WARM_RUNS, allowFail: true });
      rows.push(
        row(
          `search '${q}' (${what}), warm`,
          r.subjectMs,
          r.baselineMs,
          `medians of ${WARM_RUNS}; aim ≤ 1.2x; peak ${(r.subjectPeakKiB / 1024).toFixed(0)} vs ${(r.baselinePeakKiB / 1024).toFixed(0)} MiB; load ${load()}`,
        ),
      );
    }
    const after = tree(warm);
    const written = [...after].filter(([p, v]) => before.get(p) !== v).length;
    rows.push({
      benchmark: 'files written under the run directory by all these searches (ledger aside)',
      subject: String(written),
      baseline: '-',
      ratio: '-',
      note: 'search keeps no index; each search appends one line (kind, bytes) to ledger.jsonl',
    });
    return rows;
  } finally {
    cleanup();
  }
}
