// Shared helpers for benchmarks: every figure is a ratio of ctxwrap against a baseline command
// run side by side (alternating) in the same run, reported as medians of several runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'bin', 'ctxwrap.js');

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs a shell command under /usr/bin/time; returns wall milliseconds and peak resident KiB.
 * Throws when the command fails (a benchmark of a failing command measures nothing).
 */
export function measure(command, { env, cwd, allowFail = false } = {}) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '/bin/sh', '-c', command], {
    env: { ...process.env, ...env },
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0 && !allowFail)
    throw new Error(`benchmark command failed (${r.status}): ${command}\n${r.stderr.slice(-2000)}`);
  const lines = r.stderr.trim().split('\n');
  const peakKiB = Number(lines[lines.length - 1]);
  return { ms, peakKiB, stdout: r.stdout };
}

/**
 * Runs `subject` and `baseline` alternately `runs` times each (after one warm-up of each) and
 * returns their medians and the ratio subject/baseline of median times.
 */
export function sideBySide(subject, baseline, { runs = 7, ...opts } = {}) {
  measure(subject, opts);
  measure(baseline, opts);
  const s = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    s.push(measure(subject, opts));
    b.push(measure(baseline, opts));
  }
  const sMs = median(s.map((x) => x.ms));
  const bMs = median(b.map((x) => x.ms));
  return {
    subjectMs: sMs,
    baselineMs: bMs,
    ratio: sMs / bMs,
    subjectPeakKiB: Math.max(...s.map((x) => x.peakKiB)),
    baselinePeakKiB: Math.max(...b.map((x) => x.peakKiB)),
  };
}

export function tempDir(prefix = 'ctxwrap-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
export const fmtMiB = (kib) => `${(kib / 1024).toFixed(0)} MiB`;

/** The load average (1, 5, 15 min), to quote beside every figure taken. */
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/**
 * Megabytes of the big cases (capture, search corpus; the 1 GB case is 10 times this):
 * BENCH_MB, 100 by default as the table has them. `BENCH_MB=5 npm run bench` tries
 * every case quickly; the figures are taken at 100.
 */
export const BENCH_MB = Number(process.env.BENCH_MB ?? 100);
