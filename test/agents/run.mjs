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
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installAgent } from './agents.mjs';
import { CLAUDE_SESSIONS, CODEX_SESSIONS, GEMINI_SESSIONS } from './cases.mjs';
import { compare, makeWorld, normalize, runSession, TABLE_HEAD } from './harness.mjs';
import { runOpencode } from './opencode.mjs';

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
  for (const session of CODEX_SESSIONS.filter(
    (x) => !process.env.ONLY || x.name.includes(process.env.ONLY),
  )) {
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

const DRIVERS = { claude: runClaude, codex: runCodex, gemini: runGemini, opencode: runOpencode };

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
