#!/usr/bin/env node
/**
 * `npm run test:agents`: drives each real agent CLI (pinned in agents.mjs, installed into a cache
 * outside the repository) through its own tool loop against a loopback mock of its model API
 * (mock-model.mjs), once without ctxwrap and once after `ctxwrap init <agent>` in a temporary
 * HOME and project, and compares per case: the permission verdict, the exit status, the output
 * the model received, the directory afterwards, and the time a backgrounded call took.
 *
 * Usage: node test/agents/run.mjs [claude|codex|gemini|opencode ...]. Prints a Markdown table
 * per agent session and exits 1 when a case differs where it must not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installAgent } from './agents.mjs';
import { CLAUDE_SESSIONS, CODEX_SESSIONS, GEMINI_SESSIONS } from './cases.mjs';
import { startMock } from './mock-model.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CTXWRAP = join(ROOT, 'bin', 'ctxwrap.js');

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
    env: env(mock.url),
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
      `| ${c.name} | ${va} / ${vb} | ${ea} / ${eb} | ${rec} | ${slow(a)} / ${slow(b)} | ${short(b?.text)} | ${problems.length ? `**${problems.join(', ')}**` : 'ok'} |`,
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

async function runClaude() {
  const agent = installAgent('claude');
  let allOk = true;
  for (const session of CLAUDE_SESSIONS.filter(
    (x) => !process.env.ONLY || x.name.includes(process.env.ONLY),
  )) {
    const runs = {};
    for (const withCtx of [false, true]) {
      const world = makeWorld();
      const env = (url) => ({
        PATH: `${world.bin}:${process.env.PATH}`,
        HOME: world.home,
        SHELL: '/bin/bash',
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: 'sk-mock',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        IS_SANDBOX: '1',
        CTXWRAP_RUN_DIR: join(world.home, 'run'),
        npm_config_update_notifier: 'false',
      });
      if (session.settings) {
        mkdirSync(join(world.proj, '.claude'), { recursive: true });
        writeFileSync(join(world.proj, '.claude', 'settings.local.json'), JSON.stringify(session.settings));
      }
      if (withCtx) {
        const init = spawnSync('ctxwrap', ['init', 'claude'], {
          cwd: world.proj,
          env: { ...process.env, HOME: world.home, PATH: `${world.bin}:${process.env.PATH}` },
          encoding: 'utf8',
        });
        if (init.status !== 0) throw new Error(`init claude: ${init.stderr}`);
      }
      const calls = session.cases.map((c) => ({ description: c.name, ...c.input(world) }));
      const run = await runSession({
        agent,
        argv: ['-p', 'go', ...(session.argv ?? [])],
        env,
        cwd: world.proj,
        calls,
        shellTool: { anthropic: 'Bash' },
      });
      runs[withCtx] = { ...run, results: run.results.map((r) => normalize(r, world)) };
      if (!process.env.KEEP) rmSync(world.base, { recursive: true, force: true });
    }
    const { rows, ok } = compare(session, runs.false, runs.true);
    allOk &&= ok;
    console.log(`\n### Claude Code 2.1.332: ${session.name}\n`);
    console.log([...TABLE_HEAD, ...rows].join('\n'));
    if (process.env.VERBOSE) console.log(JSON.stringify(runs, null, 1));
  }
  return allOk;
}

/** Gemini CLI: the API key auth in the user's settings, the base URL by GOOGLE_GEMINI_BASE_URL. */
async function runGemini() {
  const agent = installAgent('gemini');
  let allOk = true;
  for (const session of GEMINI_SESSIONS.filter(
    (x) => !process.env.ONLY || x.name.includes(process.env.ONLY),
  )) {
    const runs = {};
    for (const withCtx of [false, true]) {
      const world = makeWorld();
      mkdirSync(join(world.home, '.gemini'), { recursive: true });
      writeFileSync(
        join(world.home, '.gemini', 'settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          ...(session.settings ?? {}),
        }),
      );
      const env = (url) => ({
        PATH: `${world.bin}:${process.env.PATH}`,
        HOME: world.home,
        SHELL: '/bin/bash',
        GEMINI_API_KEY: 'mock-key',
        GOOGLE_GEMINI_BASE_URL: url,
        // Headless runs need the folder trusted; project hooks run only in a trusted folder.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        CTXWRAP_RUN_DIR: join(world.home, 'run'),
        npm_config_update_notifier: 'false',
      });
      if (withCtx) {
        const init = spawnSync('ctxwrap', ['init', 'gemini'], {
          cwd: world.proj,
          env: { ...process.env, HOME: world.home, PATH: `${world.bin}:${process.env.PATH}` },
          encoding: 'utf8',
        });
        if (init.status !== 0) throw new Error(`init gemini: ${init.stderr}`);
      }
      const calls = session.cases.map((c) => c.input(world));
      const run = await runSession({
        agent,
        argv: ['-p', 'go', '-m', 'gemini-2.5-flash', ...(session.argv ?? [])],
        env,
        cwd: world.proj,
        calls,
        shellTool: { gemini: 'run_shell_command' },
      });
      runs[withCtx] = { ...run, results: run.results.map((r) => normalizeGemini(normalize(r, world))) };
      if (!process.env.KEEP) rmSync(world.base, { recursive: true, force: true });
    }
    const { rows, ok } = compare(session, runs.false, runs.true);
    allOk &&= ok;
    console.log(`\n### Gemini CLI 0.61.0: ${session.name}\n`);
    console.log([...TABLE_HEAD, ...rows].join('\n'));
    if (process.env.VERBOSE) console.log(JSON.stringify(runs, null, 1));
  }
  return allOk;
}

/** Gemini's result is JSON with an `output` text; its process group id differs from run to run. */
function normalizeGemini(r) {
  if (r?.text === undefined) return r;
  let text = r.text;
  try {
    const v = JSON.parse(text);
    text = typeof v.output === 'string' ? v.output : typeof v.error === 'string' ? v.error : text;
  } catch {
    /* as it is */
  }
  text = text
    .replace(/Process Group PGID: \d+/g, 'Process Group PGID: <n>')
    .replace(/(PIDs?:? )\d+/g, '$1<n>')
    .replace(
      /\n*\[System\] Tool input parameters were modified by a hook before execution\./,
      '\n[ctxwrap: (gemini) input modified by a hook]',
    );
  return { ...r, text };
}

/**
 * Codex CLI: a custom model provider on the mock (OpenAI Responses) in CODEX_HOME/config.toml,
 * the project trusted there, `codex exec` with approvals and sandbox bypassed (the hook rewrites
 * only then) and --dangerously-bypass-hook-trust (the hook is otherwise skipped until reviewed).
 */
async function runCodex() {
  const agent = installAgent('codex');
  let allOk = true;
  for (const session of CODEX_SESSIONS) {
    const runs = {};
    for (const withCtx of [false, true]) {
      const world = makeWorld();
      const codexHome = join(world.home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      const env = (url) => {
        writeFileSync(
          join(codexHome, 'config.toml'),
          `model = "mock"\nmodel_provider = "mock"\n[model_providers.mock]\nname = "mock"\nbase_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_KEY"\n[projects."${world.proj}"]\ntrust_level = "trusted"\n`,
        );
        return {
          PATH: `${world.bin}:${process.env.PATH}`,
          HOME: world.home,
          CODEX_HOME: codexHome,
          SHELL: '/bin/bash',
          MOCK_KEY: 'mock-key',
          CTXWRAP_RUN_DIR: join(world.home, 'run'),
          npm_config_update_notifier: 'false',
        };
      };
      if (withCtx) {
        const init = spawnSync('ctxwrap', ['init', 'codex'], {
          cwd: world.proj,
          env: {
            ...process.env,
            HOME: world.home,
            CODEX_HOME: codexHome,
            PATH: `${world.bin}:${process.env.PATH}`,
          },
          encoding: 'utf8',
        });
        if (init.status !== 0) throw new Error(`init codex: ${init.stderr}`);
      }
      const calls = session.cases.map((c) => {
        const { command, ...rest } = c.input(world);
        return { cmd: command, ...rest };
      });
      const run = await runSession({
        agent,
        argv: ['exec', '--skip-git-repo-check', ...(session.argv ?? []), 'go'],
        env,
        cwd: world.proj,
        calls,
        shellTool: { responses: 'exec_command' },
      });
      const tidy = (r) =>
        r?.text === undefined
          ? r
          : {
              ...r,
              text: r.text
                .replace(/Chunk ID: \w+/, 'Chunk ID: <id>')
                .replace(/Wall time: [\d.]+ seconds/, 'Wall time: <t>')
                .replace(/Original token count: \d+/, 'Original token count: <n>')
                .replace(/session id: [\w-]+/g, 'session id: <id>'),
            };
      runs[withCtx] = { ...run, results: run.results.map((r) => tidy(normalize(r, world))) };
      if (!process.env.KEEP) rmSync(world.base, { recursive: true, force: true });
    }
    const { rows, ok } = compare(session, runs.false, runs.true);
    allOk &&= ok;
    console.log(`\n### Codex CLI 0.169.0: ${session.name}\n`);
    console.log([...TABLE_HEAD, ...rows].join('\n'));
    if (process.env.VERBOSE) console.log(JSON.stringify(runs, null, 1));
  }
  return allOk;
}

const DRIVERS = { claude: runClaude, codex: runCodex, gemini: runGemini };

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(DRIVERS);
let ok = true;
for (const name of wanted) {
  const driver = DRIVERS[name];
  if (!driver) {
    console.log(`\n### ${name}: no driver yet`);
    continue;
  }
  ok = (await driver()) && ok;
}
process.exit(ok ? 0 : 1);
