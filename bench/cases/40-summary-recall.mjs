// Issue 9: how many of the lines an agent needs the summary keeps, on the tuning and the held-out
// corpora of bench/needles, against the head+tail baseline at the same budget (2,000
// characters), scored by bench/needles/score.mjs. Nothing outside the repository is read.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT } from '../lib.mjs';

export const title = 'summary: needle recall on the tuning corpora vs head+tail';

const BUDGET = 2000;
const OURS = join(ROOT, 'bench', 'needles', 'score.mjs');
const HELD_OUT = JSON.parse(readFileSync(join(ROOT, 'bench', 'needles', 'held-out.json'), 'utf8')).cases;

function score(scorer, args) {
  const r = spawnSync(process.execPath, [scorer, ...args, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0 && !r.stdout) throw new Error(`scorer failed: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout);
}

const summarizer = `${CLI} --run-dir {rundir} -- sh -c 'cat "$NEEDLES_FILE"; exit "$NEEDLES_EXIT"'`;
const search = `${CLI} search --run-dir {rundir} {query}`;

/** Recall and bytes over a set of case results. */
function tally(cases) {
  let found = 0;
  let searched = 0;
  let total = 0;
  let printed = 0;
  let raw = 0;
  for (const c of cases) {
    for (const n of c.needles ?? []) {
      total++;
      if (n.in_summary) found++;
      if (n.in_summary || n.search?.found) searched++;
    }
    printed += c.printed_bytes ?? 0;
    raw += c.raw_bytes ?? 0;
  }
  return { found, searched, total, ratio: raw ? printed / raw : 0 };
}

const pct = (a, b) => `${a}/${b} = ${((100 * a) / Math.max(1, b)).toFixed(1)}%`;

export async function run() {
  const rows = [];
  const corpora = [
    ['tuning corpus', OURS, (name) => !HELD_OUT.includes(name)],
    ['held-out corpus', OURS, (name) => HELD_OUT.includes(name)],
  ];
  const cache = new Map();
  const runOnce = (scorer, args) => {
    const key = `${scorer} ${args.join(' ')}`;
    if (!cache.has(key)) cache.set(key, score(scorer, args));
    return cache.get(key);
  };
  for (const [name, scorer, pick] of corpora) {
    const ours = runOnce(scorer, ['--summarizer', summarizer, '--search', search]);
    const base = runOnce(scorer, ['--baseline', 'headtail', '--budget', String(BUDGET)]);
    const choose = (r) => r.cases.filter((c) => !pick || pick(c.name));
    const a = tally(choose(ours));
    const b = tally(choose(base));
    rows.push({
      benchmark: `${name}: needles in the summary`,
      subject: pct(a.found, a.total),
      baseline: `head+tail ${BUDGET}: ${pct(b.found, b.total)}`,
      ratio: (a.found / Math.max(1, b.found)).toFixed(2),
      note: `after one search ${pct(a.searched, a.total)}; bytes printed/raw ${a.ratio.toFixed(4)} vs ${b.ratio.toFixed(4)}`,
    });
  }
  return rows;
}
