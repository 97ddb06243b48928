/**
 * What every agent's driver shares: a fresh world (HOME, project), one session through the mock
 * model, and the comparison of the runs without and with ctxwrap, case by case.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from './mock-model.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CTXWRAP = join(ROOT, 'bin', 'ctxwrap.js');

/** A fresh HOME (a .bashrc with a function and an alias) and project (a git repo, a Makefile). */
export function makeWorld() {
  const base = mkdtempSync(join(tmpdir(), 'ctxwrap-agents-'));
  const home = join(base, 'home');
  const proj = join(base, 'project');
  const bin = join(base, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(proj, 'sub'), { recursive: true });
  mkdirSync(bin);
  // ctxwrap on PATH by name, as an npm global install puts it.
  writeFileSync(join(bin, 'ctxwrap'), `#!/bin/sh\nexec node ${CTXWRAP} "$@"\n`);
  chmodSync(join(bin, 'ctxwrap'), 0o755);
  writeFileSync(join(home, '.bashrc'), 'greet() { echo "hello $1 from a function"; }\nalias ll=\'ls -1\'\n');
  writeFileSync(
    join(proj, 'package.json'),
    `${JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'echo tests pass' } }, null, 2)}\n`,
  );
  writeFileSync(join(proj, 'sub', 'Makefile'), 'all:\n\t@echo built in $(notdir $(CURDIR))\n');
  writeFileSync(join(proj, 'notes.txt'), 'a note\n');
  const date = '2026-01-01T00:00:00Z';
  const git = (...args) =>
    spawnSync('git', args, {
      cwd: proj,
      env: { ...process.env, HOME: home, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
  git('init', '-q');
  git('config', 'user.email', 'demo@example.invalid');
  git('config', 'user.name', 'demo');
  // An "editor" that writes a message, so that `git commit` without -m ends on its own either way.
  writeFileSync(
    join(bin, 'fake-editor'),
    '#!/bin/sh\necho "editor ran" >&2\necho "from the editor" > "$1"\n',
  );
  chmodSync(join(bin, 'fake-editor'), 0o755);
  git('config', 'core.editor', join(bin, 'fake-editor'));
  git('add', '-A');
  git('commit', '-qm', 'first');
  git('commit', '-q', '--allow-empty', '-m', 'second');
  writeFileSync(join(proj, 'change.txt'), 'changed\n');
  git('add', 'change.txt');
  return { base, home, proj, bin };
}

/** Runs one agent session through the mock: returns what the model received for each call. */
export async function runSession({ agent, argv, env, cwd, calls, shellTool, timeoutMs = 240_000 }) {
  const mock = await startMock({ calls, shellTool });
  const child = spawn(agent, argv, {
    cwd,
    // A commit a case makes gets the same hash in both runs.
    env: {
      GIT_AUTHOR_DATE: '2026-01-02T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-02T00:00:00Z',
      ...env(mock.url),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const code = await new Promise((res) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, timeoutMs);
    child.on('exit', (c, s) => {
      clearTimeout(timer);
      res(c ?? s);
    });
  });
  await mock.close();
  return { code, out, err, results: mock.results, requests: mock.requests };
}

/** Permission refusals as each agent words them. */
const REFUSED =
  /requires approval|haven't granted|permission to use|was blocked|has been denied|denied by|Contains .*\(|rejected|not allowed|declined/i;

export function verdictOf(r) {
  if (r === undefined || r.missing) return 'no result';
  // Claude Code starts a failed command's result with 'Exit code N'; any other error is a refusal.
  if (r.isError !== undefined) return r.isError && !/^Exit code \d+/.test(r.text) ? 'refused' : 'ran';
  return REFUSED.test(r.text) ? 'refused' : 'ran';
}

export function exitOf(r) {
  if (r === undefined || r.missing || verdictOf(r) === 'refused') return '-';
  // opencode gives the exit status to its own log, not to the model: the driver reads it there.
  if (r.exit !== undefined) return r.exit ?? 'none';
  const m =
    /^Exit code (\d+)/m.exec(r.text) ??
    /exited with code (\d+)/.exec(r.text) ??
    /exit(?: code|_code)?[": ]+(\d+)/i.exec(r.text);
  return m ? Number(m[1]) : r.isError && REFUSED.test(r.text) ? '-' : 0;
}

/** Lines ctxwrap adds: its header and footer lines, its omission markers. */
const OURS = /^\[ctxwrap[ :]/;

/** What the model received with ctxwrap, against without: same, same + id line, a summary, or differs. */
export function received(without, withCtx) {
  if (without?.text === undefined || withCtx?.text === undefined) return 'no result';
  if (verdictOf(without) === 'refused' && verdictOf(withCtx) === 'refused')
    return withCtx.text === without.text ? 'same' : 'refused, in other words';
  const strip = (t) =>
    t
      .replace(/^Exit code \d+\n?/m, '')
      .split('\n')
      .filter((l) => !OURS.test(l))
      .join('\n')
      .trim();
  if (withCtx.text === without.text) return 'same';
  if (strip(withCtx.text) === strip(without.text)) return 'same + ctxwrap line';
  if (/\[ctxwrap \w+\] exit/.test(withCtx.text) && /lines? omitted/.test(withCtx.text)) return 'summary';
  return 'DIFFERS';
}

const short = (t) =>
  JSON.stringify((t ?? '').length > 70 ? `${t.slice(0, 67)}...` : (t ?? ''))
    .slice(1, -1)
    .replaceAll('|', '\\|');

/** Compares the two runs of one session case by case; returns rows and whether all held. */
export function compare(session, without, withCtx) {
  const rows = [];
  let ok = true;
  session.cases.forEach((c, i) => {
    const a = without.results[i];
    const b = withCtx.results[i];
    const va = verdictOf(a);
    const vb = verdictOf(b);
    const ea = exitOf(a);
    const eb = exitOf(b);
    const rec = va === vb ? received(a, b) : 'DIFFERS';
    const slow = (r) => (r?.ms === undefined ? '-' : `${(r.ms / 1000).toFixed(1)}s`);
    const problems = [];
    if (va !== vb) problems.push('verdict');
    if (ea !== eb) problems.push('exit');
    if (va === 'no result' || vb === 'no result') problems.push('no result');
    if (rec === 'DIFFERS' && !c.textMayDiffer) problems.push('output');
    if (c.expect && !c.expect(b)) problems.push('expectation');
    if (problems.length > 0) ok = false;
    rows.push(
      `| ${c.name.replaceAll('|', '\\|')} | ${va} / ${vb} | ${ea} / ${eb} | ${rec} | ${slow(a)} / ${slow(b)} | ${short(b?.text)} | ${problems.length ? `**${problems.join(', ')}**` : 'ok'} |`,
    );
  });
  return { rows, ok };
}

/** Takes out what differs between two worlds by chance: temp paths, background ids. */
export function normalize(r, world) {
  if (r?.text === undefined) return r;
  const text = r.text
    .replaceAll(world.base, '<tmp>')
    .replaceAll(world.base.slice(world.base.lastIndexOf('/') + 1), '<tmp>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/with ID: \w+/g, 'with ID: <id>')
    .replace(/[A-Z][a-z]{2} +\d+ \d\d:\d\d/g, '<date>')
    .replace(/tasks\/\w+\.output/g, 'tasks/<id>.output');
  return { ...r, text };
}

export const TABLE_HEAD = [
  '| case | verdict (without / with) | exit | model received | time | with ctxwrap, the model saw | |',
  '|---|---|---|---|---|---|---|',
];
