// Issue 20: the command writes into one pipe that ctxwrap reads, never into the result file.
// Each case stores exactly the bytes the same command gives unwrapped into a pipe (`2>&1 | cat`,
// what a terminal or a CI runner gets), compared by SHA-256: reopening /dev/stderr or
// /dev/stdout, tee to them, `exec >file`, a closed stdout, a daemon writing after the command
// has exited, outputs larger than any buffer in random chunks, the MCP run tool, and the hook's
// in-shell wrappers (bash and zsh for Claude Code, bash without substitutions for Gemini CLI).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  canMount,
  cleanEnv,
  ctxwrap,
  mountTmpfs,
  onlyId,
  script,
  sh,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The bytes of `line` run by /bin/sh with stdout and stderr one pipe, as a terminal would show them. */
async function unwrapped(line: string, env: NodeJS.ProcessEnv = {}): Promise<Buffer> {
  const out = join(tempDir(), 'unwrapped');
  await execa('/bin/sh', ['-c', '{ /bin/sh -c "$1"; } 2>&1 | cat > "$2"', 'sh', line, out], {
    env: cleanEnv(undefined, env),
    reject: false,
  });
  return readFileSync(out);
}

/** Runs `line` under ctxwrap -c, and returns the stored bytes and the run. */
async function wrapped(line: string, env: NodeJS.ProcessEnv = {}) {
  const runDir = tempDir();
  const run = await ctxwrap(['-c', line], { runDir, env });
  const id = onlyId(runDir);
  return { run, runDir, id, stored: storedOutput(runDir, id) };
}

async function expectSame(line: string, env: NodeJS.ProcessEnv = {}) {
  const { run, stored } = await wrapped(line, env);
  const base = await unwrapped(line, env);
  expect(stored.length).toBe(base.length);
  expect(sha(stored)).toBe(sha(base));
  return run;
}

describe.concurrent('stored bytes = the unwrapped command’s, by SHA-256', () => {
  it('a script that writes `> /dev/stderr` (issue 20 #1: 42 of 75 bytes were stored)', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 't.sh'),
      'echo "step 1"\necho "step 2"\necho "error: x" > /dev/stderr\necho "step 3"\nexit 1\n',
    );
    const run = await expectSame(`sh ${join(dir, 't.sh')}`);
    expect(run.exitCode).toBe(1);
  });

  it('`seq 1 5000; echo e > /dev/stdout; seq 1 3` (15 of 23,908 bytes were stored)', async () => {
    await expectSame('seq 1 5000; echo e > /dev/stdout; seq 1 3');
  });

  it('`tee /dev/stdout` and `tee /dev/stderr` in a pipeline', async () => {
    await expectSame('seq 1 3000 | tee /dev/stdout | tail -2; seq 1 2000 | tee /dev/stderr | wc -l');
  });

  it('`exec >file`: the file gets its bytes, the result the rest', async () => {
    const dir = tempDir();
    const line = (f: string) =>
      `echo before; exec 3>&1 >"${f}"; seq 1 2000; echo to-stderr >&2; exec 1>&3; echo after`;
    const { stored } = await wrapped(line(join(dir, 'a')));
    const base = await unwrapped(line(join(dir, 'b')));
    expect(sha(stored)).toBe(sha(base));
    expect(sha(readFileSync(join(dir, 'a')))).toBe(sha(readFileSync(join(dir, 'b'))));
    expect(stored.toString()).toBe('before\nto-stderr\nafter\n');
  });

  it('a closed stdout (`exec >&-`): stderr still stored, and the write to stdout fails as unwrapped', async () => {
    const line = 'echo one; exec >&-; echo two 2>/dev/null; echo "status $?" >&2; echo three >&2';
    await expectSame(line);
  });

  it('several MB of random bytes in random chunks to stdout and stderr by turns', async () => {
    const line = `node ${script('random-chunks.mjs')} 7 3000000`;
    const run = await expectSame(line);
    expect(run.exitCode).toBe(0);
  });

  it('`grep -r` over the run directory itself (issue 20 #15: exit 2, "input file is also the output")', async () => {
    const runDir = tempDir();
    await ctxwrap(['--', 'echo', 'an earlier result'], { runDir });
    const line = `grep -r --include='*.txt' 'no-such-word-here' "${runDir}"; echo "status $?"`;
    await ctxwrap(['--name', 'self', '-c', line], { runDir });
    const id = storedIds(runDir).find((i) => i.startsWith('self_')) as string;
    expect(storedOutput(runDir, id).toString()).toBe('status 1\n');
  });
});

describe('a background process that writes after the command has exited', () => {
  /** `sh -c` leaving a daemon that prints 200 kB once its parent has exited and `go` exists. */
  const daemonLine = (go: string) =>
    `echo start; (while kill -0 $$ 2>/dev/null || [ ! -e "${go}" ]; do sleep 0.05; done; seq 1 40000; echo done) & echo parent-exit`;

  for (const [name, env] of [
    ['plain', {}],
    // The old build kept the command in its pipes under a file size limit: the daemon got EPIPE.
    ['under a file size limit (ulimit -f)', { ULIMIT: 'ulimit -f 100000000;' }],
  ] as const) {
    it(`ctxwrap ends first, and the file gets every later byte: ${name}`, async () => {
      const runDir = tempDir();
      const go = join(tempDir(), 'go');
      const prefix = 'ULIMIT' in env ? env.ULIMIT : '';
      const r = await sh(`${prefix} exec node "${BIN}" -c '${daemonLine(go)}'`, { runDir });
      expect(r.exitCode).toBe(0);
      const id = onlyId(runDir);
      // ctxwrap has exited while the daemon still waits: it did not wait for the pipe to close.
      expect(existsSync(go)).toBe(false);
      writeFileSync(go, '');
      await waitFor(() => storedOutput(runDir, id).toString().endsWith('done\n'));
      const goBase = join(tempDir(), 'go');
      writeFileSync(goBase, '');
      const base = await unwrapped(daemonLine(goBase));
      expect(sha(storedOutput(runDir, id))).toBe(sha(base));
    });
  }
});

describe('the MCP run tool', () => {
  it('stores what the command wrote, `> /dev/stderr` included', async () => {
    const runDir = tempDir();
    const client = new Client({ name: 'ctxwrap-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'node',
        args: [BIN, 'mcp'],
        env: cleanEnv(runDir),
        stderr: 'pipe',
      }),
    );
    try {
      const line = 'seq 1 3000; echo "error: x" > /dev/stderr; seq 1 5; exit 3';
      await client.callTool({ name: 'run', arguments: { command: line } });
      const id = onlyId(runDir);
      expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', exitCode: 3 });
      expect(sha(storedOutput(runDir, id))).toBe(sha(await unwrapped(line)));
    } finally {
      await client.close();
    }
  });
});

/**
 * The hook path: the hook's answer for `line` run as the agent runs it (Claude Code: `eval` in the
 * user's shell, stdin from /dev/null; Gemini CLI: its own subshell with an EXIT trap, as 0.61
 * wraps every call), with stdout and stderr one pipe, as the agent reads them.
 */
function throughHook(
  agent: 'claude' | 'gemini',
  shell: 'bash' | 'zsh',
  line: string,
  opts: { runDir?: string; ulimit?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const runDir = opts.runDir ?? tempDir();
  const cwd = tempDir();
  const session = '0b1e2c3d-4f50-4617-8899-aabbccddeeff';
  const env = cleanEnv(runDir, { SHELL: `/bin/${shell}`, HOME: cwd, ...opts.env });
  const payload =
    agent === 'claude'
      ? { hook_event_name: 'PreToolUse', tool_name: 'Bash', permission_mode: 'bypassPermissions' }
      : { hook_event_name: 'BeforeTool', tool_name: 'run_shell_command' };
  const input = JSON.stringify({ ...payload, session_id: session, cwd, tool_input: { command: line } });
  const hook = spawnSync('node', [BIN, 'hook', agent], {
    input,
    cwd,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  const answer = JSON.parse(hook.stdout).hookSpecificOutput;
  const text: string = agent === 'claude' ? answer.updatedInput.command : answer.tool_input.command;
  const script =
    agent === 'claude'
      ? `eval "$1" < /dev/null`
      : `_bgpids_file=${cwd}/bgpids\n(\n  trap 'jobs -p > "$_bgpids_file"' EXIT\n${text}\n)\n__code=$?\nexit $__code`;
  const seen = join(cwd, 'seen');
  const limit = opts.ulimit ? `ulimit -f ${opts.ulimit}; ` : '';
  const outer = `{ ${limit}${shell} -c "$1" ${shell} "$2"; } 2>&1 | cat > "$3"; exit \${PIPESTATUS[0]}`;
  const r = spawnSync('/bin/bash', ['-c', outer, 'bash', script, text, seen], {
    cwd,
    env,
    timeout: 20_000,
  });
  const id = /_finish --run-dir \S+ ([a-z0-9-]+_[0-9a-f]{8})/.exec(text)?.[1] as string;
  const dir = join(runDir, 'sessions', session);
  return {
    status: r.status,
    text,
    seen: readFileSync(seen),
    stored: storedOutput(dir, id),
    meta: storedMeta(dir, id),
  };
}

/**
 * The agent-and-shell pairs whose hook path is checked. zsh's wrapper is checked where zsh is
 * installed (CI's .ci/run installs it when it can); bash is always there.
 */
const HAS_ZSH = spawnSync('zsh', ['-c', 'true']).status === 0;
const HOOK_DOORS = [
  ['claude', 'bash'],
  ...(HAS_ZSH ? [['claude', 'zsh'] as const] : []),
  ['gemini', 'bash'],
] as const;

describe.concurrent('the hook path: the wrapper writes into a pipe, never into the result file', () => {
  const dir = tempDir();
  const steps = join(dir, 't.sh');
  writeFileSync(steps, 'echo "step 1"\necho "step 2"\necho "error: x" > /dev/stderr\necho "step 3"\n');
  const lines = [
    // issue 20 #2: the agent was shown `error: bthree`
    'echo one; echo two; echo "error: bad" > /dev/stderr; echo three',
    // The reader is no job of the shell: a bare `wait` waited for it for ever, `jobs` listed it.
    'wait; jobs; echo waited',
    `sh ${steps}; seq 1 3000; echo e > /dev/stdout; seq 1 2000 | tee /dev/stdout | tail -2; echo x | tee /dev/stderr; node ${script('random-chunks.mjs')} 5 300000`,
  ];
  for (const [agent, shell] of HOOK_DOORS) {
    it(`${agent} in ${shell}: every byte stored and shown, by SHA-256`, async () => {
      for (const line of lines) {
        const r = throughHook(agent, shell, line);
        const base = await unwrapped(line);
        const context = `${line}\n---\n${r.text}\n---\n${r.seen.toString('latin1').slice(0, 2000)}`;
        expect(sha(r.stored), context).toBe(sha(base));
        expect(r.meta, context).toMatchObject({ state: 'complete', exitCode: 0 });
        // What the agent reads: the output itself when it is short, then the summary's line.
        if (base.length < 200) expect(r.seen.subarray(0, base.length).equals(base), context).toBe(true);
        else expect(r.seen.toString('latin1'), context).toContain(`[ctxwrap ${r.meta.id}]`);
        expect(r.status, context).toBe(0);
      }
    });
  }

  for (const [agent, shell] of HOOK_DOORS) {
    it(`${agent} in ${shell}, the disk full: the command runs on to its end (it got SIGPIPE: 141)`, async () => {
      // A 64 kB tmpfs; a file size limit (the reader's writes only) where mounting is refused.
      const runDir = tempDir();
      if (canMount()) mountTmpfs(runDir, '64k');
      const marker = join(tempDir(), 'marker');
      const line = `seq 1 100000; echo "seq status $?" > ${marker}; echo after`;
      const r = throughHook(agent, shell, line, { runDir, ...(canMount() ? {} : { ulimit: '64' }) });
      const context = `${r.text}\n---\n${r.seen.toString('latin1').slice(-2000)}`;
      expect(readFileSync(marker, 'utf8'), context).toBe('seq status 0\n');
      expect(r.status, context).toBe(0);
      // What was stored is the output's start, exactly; the agent is told it was cut.
      const base = await unwrapped('seq 1 100000; echo after');
      expect(r.stored.length, context).toBeGreaterThan(0);
      expect(r.stored.equals(base.subarray(0, r.stored.length)), context).toBe(true);
      expect(r.seen.toString('latin1'), context).toContain(`[ctxwrap ${r.meta.id}]`);
    });
  }

  for (const [agent, shell] of HOOK_DOORS) {
    it(`${agent} in ${shell}: the cap on stored bytes holds (it was not applied: the disk filled)`, async () => {
      // seq's own status is the command's: 141 had it died of SIGPIPE.
      const line = 'seq 1 100000';
      const r = throughHook(agent, shell, line, { env: { CTXWRAP_MAX_OUTPUT: '100k' } });
      const base = await unwrapped(line);
      const context = `${r.text}\n---\n${r.seen.toString('latin1').slice(0, 600)}`;
      expect(r.status, context).toBe(0);
      expect(r.stored.length, context).toBe(102_400);
      expect(r.stored.equals(base.subarray(0, 102_400)), context).toBe(true);
      // The total counts what the reader drained; what it held when it stopped writing is lost.
      expect(r.meta, context).toMatchObject({ storedBytes: 102_400 });
      expect(r.meta.bytes as number, context).toBeGreaterThan(base.length - (256 << 10));
      expect(r.meta.bytes as number, context).toBeLessThanOrEqual(base.length);
      expect(r.seen.toString('latin1'), context).toMatch(
        /output cut short: stored only 102 kB of at least \d+ kB/,
      );
    });
  }

  it.runIf(HAS_ZSH)(
    'claude in zsh: `exit 3` inside the command still prints the summary to the agent',
    async () => {
      const line = 'echo one; echo "error: bad" > /dev/stderr; echo three; exit 3';
      const r = throughHook('claude', 'zsh', line);
      const context = `${r.text}\n---\n${r.seen.toString('latin1')}`;
      expect(r.status, context).toBe(3);
      expect(r.stored.toString(), context).toBe('one\nerror: bad\nthree\n');
      expect(r.seen.toString(), context).toMatch(/^one\nerror: bad\nthree\n\[ctxwrap \S+\] exit 3/);
      expect(r.meta, context).toMatchObject({ state: 'complete', exitCode: 3 });
    },
  );
});
