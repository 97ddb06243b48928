// `ctxwrap read <id> --lines grep:PATTERN` against `grep -n PATTERN file` on the same large
// stored result (CTXWRAP_BENCH_READ_MB, default 200 MB of log-like lines), side by side.
// read prints at most --max-chars (4,000 by default) while grep prints every match, so the fair
// comparisons are the patterns with few matches; the many-match row is there to show that read's
// cost does not grow with what it leaves out.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fmtMiB, fmtMs, sideBySide, tempDir } from '../lib.mjs';

export const title = 'read --lines grep: on a large result vs grep -n';

const MB = Number(process.env.CTXWRAP_BENCH_READ_MB ?? 200);
const ID = 'big_0123abcd';

/** Writes `mb` megabytes of log lines as a stored result, with its metadata. */
function storeLog(runDir, mb) {
  const results = join(runDir, 'tool_results');
  mkdirSync(results, { recursive: true, mode: 0o700 });
  const path = join(results, `${ID}.txt`);
  const fd = openSync(path, 'w');
  const levels = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'];
  let x = 12345;
  const next = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 8;
  };
  let bytes = 0;
  let lines = 0;
  while (bytes < mb * 1e6) {
    const block = [];
    for (let k = 0; k < 10_000; k++, lines++) {
      const error = lines % 100_003 === 77;
      const level = error ? 'ERROR' : levels[next() % 5];
      const ms = next() % 5000;
      block.push(
        `2024-05-01T12:${String(Math.floor(lines / 60_000) % 60).padStart(2, '0')}:${String(Math.floor(lines / 1000) % 60).padStart(2, '0')}.${String(lines % 1000).padStart(3, '0')}Z ${level} [worker-${next() % 16}] request id=${next().toString(16)} path=/api/v1/items/${next() % 100_000} status=${error ? 503 : 200} took ${ms}ms${error ? ' upstream Timeout, connection reset' : ''}`,
      );
    }
    const text = `${block.join('\n')}\n`;
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
  }
  closeSync(fd);
  const meta = {
    version: 1,
    id: ID,
    command: ['cat', 'service.log'],
    source: 'command',
    cwd: runDir,
    startedAt: new Date().toISOString(),
    state: 'complete',
    pid: process.pid,
    durationMs: 1,
    exitCode: 0,
    childExitCode: 0,
    signal: null,
    endReason: 'exit',
    bytes,
    lines,
  };
  const metaFd = openSync(join(results, `${ID}.json`), 'w');
  writeSync(metaFd, JSON.stringify(meta));
  closeSync(metaFd);
  return { path, bytes, lines };
}

const CASES = [
  ['few matches, literal', 'ERROR', "grep -n 'ERROR'"],
  ['few matches, regex', 'status=5\\d\\d', "grep -nE 'status=5[0-9]{2}'"],
  ['few matches, /i', '/timeout/i', "grep -ni 'timeout'"],
  ['many matches (20% of lines)', 'WARN', "grep -n 'WARN'"],
];

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const { path, bytes } = storeLog(dir, MB);
    const size = `${(bytes / 1e6).toFixed(0)} MB`;
    const rows = [];
    for (const [name, pattern, grep] of CASES) {
      const r = sideBySide(
        `node ${CLI} read --run-dir ${dir} ${ID} --lines 'grep:${pattern}' | cat > /dev/null`,
        `${grep} ${path} | cat > /dev/null`,
        { runs: 5 },
      );
      rows.push({
        benchmark: `read grep:${pattern} (${name}, ${size})`,
        subject: fmtMs(r.subjectMs),
        baseline: fmtMs(r.baselineMs),
        ratio: `${r.ratio.toFixed(2)}×`,
        note: `peak memory ${fmtMiB(r.subjectPeakKiB)} vs ${fmtMiB(r.baselinePeakKiB)}`,
      });
    }
    return rows;
  } finally {
    cleanup();
  }
}
