// npm run bench:stress [-- --procs 200 --kb 1024 --readers 1 --json --no-empty-lines]
// (--readers: how many loops of each reading command run beside the writers)
//
// Load: N ctxwrap processes at once against one run directory, each storing a known output of
// the given size and exiting with a known status, while other processes read the store (show,
// and list, read, search and clean --older-than where the built CLI has them) the whole time.
// Then every result is checked: the stored file's SHA-256 equals the command's output, the exit
// status is right, the registry lists every run, a unique token of each is found, nothing is
// half-written, and the old results clean was told to remove are gone while the new ones stay.
// Then 50 million empty lines through one ctxwrap.
// Prints a table (or, with --json, the report the test suite asserts on); exits 1 on any loss.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../bin/ctxwrap.js', import.meta.url));
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** Old results made for clean to remove during the load. */
const OLD = 5;

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

/** The shell command of run `seed` and the exact bytes it prints. */
export function knownRun(seed, bytes, token) {
  const pad = 'abcdefghijklmnopqrstuvwxyz'.slice(0, 10 + (seed % 16));
  const lineOf = (n) => `s${seed} line ${n} ${pad}\n`;
  let count = 0;
  let size = `${token}\n`.length + `done ${seed}\n`.length;
  while (size < bytes) size += lineOf(++count).length;
  if (count > 999_999) throw new Error('seq prints 1e+06 from there on: use fewer bytes');
  const parts = [`${token}\n`];
  for (let n = 1; n <= count; n++) parts.push(lineOf(n));
  parts.push(`done ${seed}\n`);
  return {
    command: `echo ${token}; seq -f 's${seed} line %g ${pad}' 1 ${count}; echo 'done ${seed}'; exit ${seed % 5}`,
    output: Buffer.from(parts.join('')),
    exitCode: seed % 5,
  };
}

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn('node', [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

/** The subcommands this build has. */
function commandsOf(env) {
  const help = spawnSync('node', [CLI, '--help'], { env, encoding: 'utf8' }).stdout;
  return new Set([...help.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]));
}

/** 50 million empty lines (50 MB of newlines) through one ctxwrap: time, status, bytes kept. */
export async function emptyLines(count = 50_000_000) {
  const runDir = mkdtempSync(join(tmpdir(), 'ctxwrap-stress-'));
  const env = { ...process.env, CTXWRAP_RUN_DIR: runDir, NO_COLOR: '1' };
  try {
    const started = performance.now();
    const r = await run(['-c', `head -c ${count} /dev/zero | tr '\\0' '\\n'`], env);
    const ms = Math.round(performance.now() - started);
    const id = /^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(r.stdout)?.[1];
    const meta = id ? JSON.parse(readFileSync(join(runDir, 'tool_results', `${id}.json`), 'utf8')) : {};
    return {
      lines: count,
      ms,
      exitCode: r.code,
      storedLines: meta.lines,
      storedBytes: id ? readFileSync(join(runDir, 'tool_results', `${id}.txt`)).length : 0,
      summaryChars: r.stdout.length,
      harmless: !RAW_CONTROL.test(r.stdout),
    };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

export async function stress({ procs = 200, kb = 1024, readers = 1 } = {}) {
  const runDir = mkdtempSync(join(tmpdir(), 'ctxwrap-stress-'));
  const env = { ...process.env, CTXWRAP_RUN_DIR: runDir, NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('CTXWRAP_') && k !== 'CTXWRAP_RUN_DIR') delete env[k];
  const has = commandsOf(env);
  const report = {
    procs,
    bytesEach: kb * 1024,
    totalBytes: 0,
    wallMs: 0,
    wrongExit: 0,
    wrongChecksum: 0,
    missing: 0,
    notComplete: 0,
    halfWritten: 0,
    listed: null,
    searched: null,
    oldCleaned: null,
    readerCalls: {},
    readerFailures: [],
    commands: [...has].filter((c) => ['show', 'list', 'read', 'search', 'clean'].includes(c)),
  };
  const idsNamed = (prefix = '') => {
    let names = [];
    try {
      names = readdirSync(join(runDir, 'tool_results'));
    } catch {
      /* not made yet */
    }
    return names
      .filter((f) => /^[a-z0-9-]+_[0-9a-f]{8}\.json$/.test(f) && f.startsWith(prefix))
      .map((f) => f.slice(0, -5));
  };
  const ids = () => idsNamed();
  try {
    // Old results (started three days ago) for clean --older-than to remove while the load runs.
    if (has.has('clean')) {
      await Promise.all(
        Array.from({ length: OLD }, (_, i) => run(['--name', 'oldrun', '-c', `echo old ${i}`], env)),
      );
      for (const id of idsNamed('oldrun_')) {
        const path = join(runDir, 'tool_results', `${id}.json`);
        const meta = JSON.parse(readFileSync(path, 'utf8'));
        meta.startedAt = new Date(Date.now() - 3 * 86_400_000).toISOString();
        writeFileSync(path, JSON.stringify(meta));
      }
    }

    const runs = Array.from({ length: procs }, (_, seed) =>
      knownRun(seed, kb * 1024, `uniq${seed}x${randomBytes(6).toString('hex')}`),
    );
    let done = false;
    const readerLoop = async (kind) => {
      let n = 0;
      while (!done) {
        const known = ids();
        const id = known[n % Math.max(1, known.length)];
        const seed = n % procs;
        const args = {
          show: ['show', id],
          list: ['list'],
          read: n % 2 ? ['read', id, '--lines', '1-20'] : ['read', id, '--lines', `grep:s${seed} line`],
          search: ['search', `s${seed}`],
          clean: ['clean', '--older-than', '1d'],
        }[kind];
        n++;
        if (!id && kind !== 'list' && kind !== 'clean' && kind !== 'search') {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const r = await run(args, env);
        report.readerCalls[kind] = (report.readerCalls[kind] ?? 0) + 1;
        // A result still being written may be shown as running or not yet exist: exit 0 or 1.
        const bad =
          r.signal ||
          (r.code !== 0 && r.code !== 1) ||
          /internal error/.test(r.stderr) ||
          RAW_CONTROL.test(r.stdout.replace(/\t/g, ''));
        if (bad) report.readerFailures.push({ kind, args, code: r.code, stderr: r.stderr.slice(0, 300) });
      }
    };
    const loops = [];
    for (const kind of report.commands) for (let i = 0; i < readers; i++) loops.push(readerLoop(kind));

    const started = performance.now();
    const results = await Promise.all(runs.map((r) => run(['-c', r.command], env)));
    report.wallMs = Math.round(performance.now() - started);
    done = true;
    await Promise.all(loops);

    // Every run: its exit status, its header, its stored bytes and metadata.
    const byToken = new Map();
    results.forEach((r, seed) => {
      const want = runs[seed];
      report.totalBytes += want.output.length;
      if (r.code !== want.exitCode) report.wrongExit++;
      const id = /^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(r.stdout)?.[1];
      if (!id) {
        report.missing++;
        return;
      }
      byToken.set(want.output.subarray(0, want.output.indexOf(10)).toString(), id);
      let stored;
      let meta;
      try {
        stored = readFileSync(join(runDir, 'tool_results', `${id}.txt`));
        meta = JSON.parse(readFileSync(join(runDir, 'tool_results', `${id}.json`), 'utf8'));
      } catch {
        report.missing++;
        return;
      }
      const sha = (b) => createHash('sha256').update(b).digest('hex');
      if (sha(stored) !== sha(want.output)) report.wrongChecksum++;
      if (meta.state !== 'complete' || meta.exitCode !== want.exitCode || meta.bytes !== want.output.length)
        report.notComplete++;
    });
    // Nothing half-written: no temporary file left, every metadata file parses, every output has one.
    const files = readdirSync(join(runDir, 'tool_results'));
    for (const f of files) {
      if (f.includes('.tmp-')) report.halfWritten++;
      else if (f.endsWith('.json')) {
        try {
          JSON.parse(readFileSync(join(runDir, 'tool_results', f), 'utf8'));
        } catch {
          report.halfWritten++;
        }
      } else if (f.endsWith('.txt') && !f.endsWith('.summary.txt')) {
        if (!files.includes(f.replace(/\.txt$/, '.json'))) report.halfWritten++;
      }
    }
    const newIds = [...byToken.values()];
    if (has.has('list')) {
      const listed = (await run(['list', '--limit', '0'], env)).stdout;
      report.listed = newIds.filter((id) => listed.includes(id)).length;
    }
    if (has.has('search')) {
      // Four searches at a time, all against the same indexes.
      let found = 0;
      const queue = [...byToken];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift())
          if ((await run(['search', next[0]], env)).stdout.includes(next[1])) found++;
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      report.searched = found;
    }
    if (has.has('clean')) {
      await run(['clean', '--older-than', '1d'], env);
      const left = new Set(ids());
      report.oldCleaned = {
        removed: OLD - idsNamed('oldrun_').length,
        of: OLD,
        newKept: newIds.filter((id) => left.has(id)).length,
      };
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  report.lost =
    report.wrongChecksum + report.missing + report.notComplete + report.halfWritten + report.wrongExit;
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await stress({
    procs: Number(option('procs', 200)),
    kb: Number(option('kb', 1024)),
    readers: Number(option('readers', 1)),
  });
  const empty = process.argv.includes('--no-empty-lines') ? undefined : await emptyLines();
  if (process.argv.includes('--json')) console.log(JSON.stringify(empty ? { ...report, empty } : report));
  else {
    const mb = (report.totalBytes / 1e6).toFixed(0);
    console.log('| load | figure |\n|---|---:|');
    console.log(`| ctxwrap processes at once | ${report.procs} |`);
    console.log(
      `| bytes stored (known content) | ${mb} MB (${(report.bytesEach / 1024).toFixed(0)} KiB each) |`,
    );
    console.log(`| wall time, all runs | ${(report.wallMs / 1000).toFixed(1)} s |`);
    console.log(
      `| readers alongside | ${Object.entries(report.readerCalls)
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ')} |`,
    );
    console.log(`| wrong exit status | ${report.wrongExit} |`);
    console.log(`| checksum mismatches | ${report.wrongChecksum} |`);
    console.log(`| missing or not complete | ${report.missing + report.notComplete} |`);
    console.log(`| half-written files | ${report.halfWritten} |`);
    if (report.listed !== null) console.log(`| listed by \`list\` | ${report.listed}/${report.procs} |`);
    if (report.searched !== null)
      console.log(`| unique token found by \`search\` | ${report.searched}/${report.procs} |`);
    console.log(`| reader failures | ${report.readerFailures.length} |`);
    console.log(`| **lost** | **${report.lost}** |`);
    if (empty)
      console.log(
        `| ${(empty.lines / 1e6).toFixed(0)}M empty lines: exit, stored lines, summary chars, time | ${empty.exitCode}, ${empty.storedLines}, ${empty.summaryChars}, ${(empty.ms / 1000).toFixed(1)} s |`,
      );
  }
  const ok =
    report.lost === 0 &&
    report.readerFailures.length === 0 &&
    (report.oldCleaned === null || report.oldCleaned.newKept === report.procs) &&
    (report.listed === null || report.listed === report.procs) &&
    (report.searched === null || report.searched === report.procs) &&
    (empty === undefined ||
      (empty.exitCode === 0 &&
        empty.storedLines === empty.lines &&
        empty.storedBytes === empty.lines &&
        empty.harmless));
  process.exit(ok ? 0 : 1);
}
