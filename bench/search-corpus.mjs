// Builds a run directory of many real-looking results for the search benchmark, deterministically
// from a seed: windows of the real tool outputs in bench/needles (numbers and hashes varied),
// plus generated build logs, test runs, listings and service logs. A few rare lines are planted so
// that a benchmark query has known, rare answers.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const NEEDLES = join(process.env.CTXWRAP_NEEDLES ?? join(ROOT, 'bench', 'needles'), 'cases');

/** A small, seedable PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The lines planted in a few results, so that rare queries have answers. */
export const PLANTED = [
  'Error: connect ECONNREFUSED 10.0.3.7:5432 (postgres primary-db, pool worker 3)',
  'FATAL: password authentication failed for user "replicator" (SQLSTATE 28P01)',
];

function material() {
  const sources = [];
  if (existsSync(NEEDLES)) {
    for (const name of readdirSync(NEEDLES).sort()) {
      if (name.includes('binary') || name.includes('small')) continue;
      const text = readFileSync(join(NEEDLES, name, 'output.txt'), 'utf8');
      sources.push({ name, lines: text.split('\n') });
    }
  }
  const words = new Set();
  for (const s of sources) {
    for (const line of s.lines.slice(0, 3000)) {
      for (const w of line.replace(/\x1b\[[0-9;]*m/g, '').match(/\b[A-Za-z_]{4,16}\b/g) ?? []) words.add(w);
    }
  }
  const vocab =
    words.size > 200
      ? [...words].sort()
      : 'alpha beta gamma delta parser buffer socket request handler cache stream index worker'.split(' ');
  // A project's files: the same few hundred paths come back run after run.
  const r = rng(7);
  const dirs = Array.from({ length: 40 }, () => pick(r, vocab).toLowerCase());
  const files = Array.from({ length: 600 }, () => `src/${pick(r, dirs)}/${pick(r, vocab).toLowerCase()}`);
  return { sources, vocab, files };
}

function varyNumbers(line, r) {
  return line
    .replace(/\b[0-9a-f]{7,40}\b/g, (h) => (r() < 0.7 ? hex(r, h.length) : h))
    .replace(/\d{2,}/g, (d) =>
      r() < 0.3 ? String(Math.floor(r() * 10 ** d.length)).padStart(d.length, '1') : d,
    );
}

const hex = (r, n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
const pick = (r, list) => list[Math.floor(r() * list.length)];
const two = (n) => String(n).padStart(2, '0');

const GENERATORS = {
  replay(r, m) {
    if (m.sources.length === 0) return GENERATORS.build(r, m);
    const src = pick(r, m.sources);
    const start = Math.floor(r() * Math.max(1, src.lines.length - 50));
    const n = 50 + Math.floor(r() * 350);
    return src.lines.slice(start, start + n).map((l) => varyNumbers(l, r));
  },
  build(r, m) {
    const out = [];
    for (let i = 0; i < 40; i++) {
      const file = `${pick(r, m.files)}.c`;
      out.push(`gcc -Wall -O2 -std=c99 -DNDEBUG -Iinclude -c -o ${file.replace(/\.c$/, '.o')} ${file}`);
      if (r() < 0.3) {
        const line = 1 + Math.floor(r() * 900);
        out.push(
          `${file}:${line}:${1 + Math.floor(r() * 40)}: warning: unused variable ‘${pick(r, m.vocab)}’ [-Wunused-variable]`,
        );
        out.push(`  ${line} |   int ${pick(r, m.vocab)} = ${pick(r, m.vocab)}(${pick(r, m.vocab)});`);
        out.push('      |       ^~~~~~~~');
      }
      if (r() < 0.01)
        out.push(
          `${file}:${Math.floor(r() * 900)}:5: error: ‘${pick(r, m.vocab)}’ undeclared (first use in this function)`,
        );
    }
    return out;
  },
  test(r, m) {
    const out = [];
    const file = `${pick(r, m.files).replace(/^src/, 'test')}.test.ts`;
    for (let i = 0; i < 60; i++) {
      const ok = r() > 0.01;
      out.push(
        ` ${ok ? '✓' : '×'} ${file} > ${pick(r, m.vocab)} > ${pick(r, m.vocab)} ${pick(r, m.vocab)} ${Math.floor(r() * 40)}ms`,
      );
      if (!ok) {
        out.push(
          `AssertionError: expected '${pick(r, m.vocab)}' to be '${pick(r, m.vocab)}' // Object.is equality`,
        );
        out.push(` ❯ ${file}:${Math.floor(r() * 300)}:${Math.floor(r() * 60)}`);
      }
    }
    return out;
  },
  listing(r, m) {
    const out = [];
    for (let i = 0; i < 80; i++) {
      const size = Math.floor(r() * 200_000);
      const ext = pick(r, ['c', 'h', 'ts', 'js', 'json', 'md', 'o', 'rs', 'py']);
      out.push(
        `-rw-r--r-- 1 dev dev ${String(size).padStart(7)} Nov ${two(1 + Math.floor(r() * 28))} ${two(Math.floor(r() * 24))}:${two(Math.floor(r() * 60))} ./${pick(r, m.files)}.${ext}`,
      );
    }
    return out;
  },
  service(r, m) {
    const out = [];
    for (let i = 0; i < 80; i++) {
      const ts = `2026-11-${two(1 + Math.floor(r() * 28))}T${two(Math.floor(r() * 24))}:${two(Math.floor(r() * 60))}:${two(Math.floor(r() * 60))}.${String(Math.floor(r() * 1000)).padStart(3, '0')}Z`;
      const level = r() < 0.02 ? 'ERROR' : r() < 0.1 ? 'WARN' : 'INFO';
      const path = `/api/v1/${pick(r, m.vocab).toLowerCase()}/${Math.floor(r() * 1000)}`;
      out.push(
        `${ts} ${level} [req ${hex(r, 8)}] ${pick(r, ['GET', 'POST', 'PUT'])} ${path} ${level === 'ERROR' ? 500 : 200} ${Math.floor(r() * 900)}ms`,
      );
      if (level === 'ERROR') {
        out.push(
          `    at ${pick(r, m.vocab)}.${pick(r, m.vocab)} (/srv/app/${pick(r, m.files)}.js:${Math.floor(r() * 500)}:${Math.floor(r() * 40)})`,
        );
      }
    }
    return out;
  },
};

const KINDS = [
  ['replay', 0.4, 'make'],
  ['build', 0.2, 'gcc'],
  ['test', 0.15, 'vitest'],
  ['listing', 0.1, 'ls'],
  ['service', 0.15, 'journalctl'],
];

/**
 * Writes `results` results of about `bytes` bytes in all into `<root>/tool_results/`, with
 * complete metadata. Returns the list of `{ id, bytes }`.
 */
export function makeSearchCorpus(root, { results = 500, bytes = 100 * 1024 * 1024, seed = 42 } = {}) {
  const r = rng(seed);
  const m = material();
  const dir = join(root, 'tool_results');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Sizes: log-normal, scaled so that they add up to `bytes`.
  const raw = Array.from({ length: results }, () =>
    Math.exp(1.2 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())),
  );
  const scale = bytes / raw.reduce((a, b) => a + b, 0);
  const planted = new Map([
    [Math.floor(results * 0.13), PLANTED[0]],
    [Math.floor(results * 0.58), PLANTED[0]],
    [Math.floor(results * 0.91), PLANTED[1]],
  ]);
  const made = [];
  const now = Date.now();
  for (let i = 0; i < results; i++) {
    const target = Math.max(2000, Math.round(raw[i] * scale));
    const x = r();
    let acc = 0;
    const [kind, , tool] =
      KINDS.find(([, w]) => {
        acc += w;
        return x < acc;
      }) ?? KINDS[0];
    const parts = [];
    let size = 0;
    while (size < target) {
      for (const line of GENERATORS[kind](r, m)) {
        parts.push(line);
        size += Buffer.byteLength(line) + 1;
      }
    }
    if (planted.has(i)) parts.splice(Math.floor(parts.length / 2), 0, planted.get(i));
    const text = `${parts.join('\n')}\n`;
    const id = `${tool}_${hex(r, 8)}`;
    writeFileSync(join(dir, `${id}.txt`), text);
    const meta = {
      version: 1,
      id,
      command: [tool, kind],
      source: 'command',
      cwd: '/home/dev/work',
      startedAt: new Date(now - (results - i) * 1000).toISOString(),
      state: 'complete',
      pid: 1,
      durationMs: 1000,
      exitCode: 0,
      childExitCode: 0,
      signal: null,
      endReason: 'exit',
      bytes: Buffer.byteLength(text),
      lines: parts.length,
    };
    writeFileSync(join(dir, `${id}.json`), `${JSON.stringify(meta, null, 2)}\n`);
    made.push({ id, bytes: meta.bytes });
  }
  return made;
}
