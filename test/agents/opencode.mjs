/**
 * The opencode driver: `opencode run --format json` with the Anthropic provider pointed at the
 * mock (project opencode.json), the session's permission rules in the same file, HOME and the
 * XDG directories inside the world. The model gets no exit status from opencode's bash tool; the
 * driver reads it from the run's JSON events (`metadata.exit`), with each call's state.
 *
 * In `opencode run` a rule that answers `ask` is auto-rejected and the run ends there: a
 * session's asked case comes last.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENTS, installAgent } from './agents.mjs';
import { OPENCODE_SESSIONS } from './cases.mjs';
import { compare, makeWorld, normalize, runSession, TABLE_HEAD } from './harness.mjs';

export async function runOpencode() {
  const agent = installAgent('opencode');
  let allOk = true;
  for (const session of OPENCODE_SESSIONS.filter(
    (x) => !process.env.ONLY || x.name.includes(process.env.ONLY),
  )) {
    const runs = {};
    for (const withCtx of [false, true]) {
      const world = makeWorld();
      const xdg = (d) => join(world.home, d);
      const env = (url) => {
        writeFileSync(
          join(world.proj, 'opencode.json'),
          JSON.stringify({
            $schema: 'https://opencode.ai/config.json',
            provider: { anthropic: { options: { baseURL: `${url}/v1`, apiKey: 'sk-mock' } } },
            model: 'anthropic/claude-sonnet-4-5',
            autoupdate: false,
            share: 'disabled',
            ...(session.config ?? {}),
          }),
        );
        return {
          PATH: `${world.bin}:${process.env.PATH}`,
          HOME: world.home,
          SHELL: '/bin/bash',
          XDG_CONFIG_HOME: xdg('.config'),
          XDG_DATA_HOME: xdg('.local/share'),
          XDG_STATE_HOME: xdg('.local/state'),
          XDG_CACHE_HOME: xdg('.cache'),
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          CTXWRAP_RUN_DIR: join(world.home, 'run'),
          npm_config_update_notifier: 'false',
        };
      };
      if (withCtx) {
        const init = spawnSync('ctxwrap', ['init', 'opencode'], {
          cwd: world.proj,
          env: { ...process.env, HOME: world.home, PATH: `${world.bin}:${process.env.PATH}` },
          encoding: 'utf8',
        });
        if (init.status !== 0) throw new Error(`init opencode: ${init.stderr}`);
      }
      const calls = session.cases.map((c) => ({ description: c.name, ...c.input(world) }));
      const run = await runSession({
        agent,
        argv: ['run', '--format', 'json', ...(session.argv ?? []), 'go'],
        env,
        cwd: world.proj,
        calls,
        shellTool: { anthropic: 'bash' },
      });
      const results = withEvents(run);
      runs[withCtx] = { ...run, results: results.map((r) => normalize(r, world)) };
      if (!process.env.KEEP) rmSync(world.base, { recursive: true, force: true });
    }
    const { rows, ok } = compare(session, runs.false, runs.true);
    allOk &&= ok;
    console.log(`\n### opencode ${AGENTS.opencode.version}: ${session.name}\n`);
    console.log([...TABLE_HEAD, ...rows].join('\n'));
    if (process.env.VERBOSE) console.log(JSON.stringify(runs, null, 1));
  }
  return allOk;
}

/**
 * The mock's record of what the model received, with each call's exit status from opencode's
 * events; a call that was asked about and auto-rejected (the run then ends) becomes a refusal.
 */
function withEvents(run) {
  const parts = new Map();
  for (const line of run.out.split('\n')) {
    try {
      const ev = JSON.parse(line);
      if (ev.type === 'tool_use' && ev.part?.callID) parts.set(ev.part.callID, ev.part.state);
    } catch {
      /* not an event */
    }
  }
  const rejected = /permission requested: (.*); auto-rejecting/.exec(run.err);
  let rejectionUsed = false;
  return run.results.map((r, i) => {
    const state = parts.get(`call_${i + 1}`);
    if (!r.missing) return state?.status === 'completed' ? { ...r, exit: state.metadata?.exit ?? null } : r;
    if (state?.status === 'error') return { text: state.error, isError: true };
    if (rejected && !rejectionUsed) {
      rejectionUsed = true;
      return { text: `asked, auto-rejected: ${rejected[1]}`, isError: true };
    }
    return r;
  });
}
