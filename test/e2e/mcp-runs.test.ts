// The MCP run tool through the official SDK client over stdio: progress while a run goes, an
// answer with the output so far past the wait, cancellation and a vanished client ending the
// command (checked by its pid), a clear error for a bad cwd, instructions at initialize, and many
// runs at once without a MaxListenersExceededWarning.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../support.js';

const clients: Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ctxwrap-mcp-'));
  dirs.push(d);
  return d;
}

async function connect(runDir: string): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'ctxwrap-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: 'node',
    args: [BIN, 'mcp'],
    env: cleanEnv(runDir),
    stderr: 'pipe',
  });
  const err: string[] = [];
  transport.stderr?.on('data', (c: Buffer) => err.push(c.toString()));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err.join('') };
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ type: string; text: string }> }).content[0] as { text: string }).text;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: () => boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return what();
}

/** A command that writes its own pid to a file, then sleeps: the process a stop must end. */
const sleeper = (pidFile: string) => `echo "$$" > ${pidFile}; exec sleep 60`;

describe('ctxwrap mcp: runs', () => {
  it('sends progress (elapsed, lines, bytes) while a 3 s run goes, when the client asks', async () => {
    const { client } = await connect(dir());
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'run', arguments: { command: 'for i in 1 2 3; do echo "line $i"; sleep 1; done' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(textOf(result)).toContain('line 3');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < progress.length; i++)
      expect((progress[i]?.progress ?? 0) > (progress[i - 1]?.progress ?? 0)).toBe(true);
    expect(progress.at(-1)?.message).toMatch(/^\S+ · \d+ lines · \d+ B$/);
  });

  it('answers with the output so far past the wait; the command goes on and its result is stored', async () => {
    const runDir = dir();
    const { client } = await connect(runDir);
    const text = textOf(
      await client.callTool({
        name: 'run',
        arguments: { command: 'echo first; sleep 4; echo last', wait: '2s' },
      }),
    );
    expect(text).toMatch(/still running after/);
    expect(text).toContain('first');
    const id = /\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(text)?.[1] as string;
    expect(id).toBeDefined();
    const meta = join(runDir, 'tool_results', `${id}.json`);
    expect(await until(() => JSON.parse(readFileSync(meta, 'utf8')).state === 'complete')).toBe(true);
    const read = textOf(await client.callTool({ name: 'read', arguments: { id } }));
    expect(read).toBe('1: first\n2: last\n');
  });

  it('a cancelled run leaves no process', async () => {
    const work = dir();
    const pidFile = join(work, 'pid');
    const { client } = await connect(join(work, 'run'));
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'run', arguments: { command: sleeper(pidFile) } }, undefined, {
        signal: controller.signal,
      })
      .catch((e: Error) => e);
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it('an abandoned run (the client killed) leaves no process', async () => {
    const work = dir();
    const pidFile = join(work, 'pid');
    const serverPidFile = join(work, 'server-pid');
    const client = join(work, 'client.mjs');
    const sdk = (p: string) => join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', p);
    writeFileSync(
      client,
      `import { writeFileSync } from 'node:fs';
import { Client } from '${sdk('client/index.js')}';
import { StdioClientTransport } from '${sdk('client/stdio.js')}';
const transport = new StdioClientTransport({ command: 'node', args: [${JSON.stringify(BIN)}, 'mcp'], env: JSON.parse(process.env.SERVER_ENV) });
const client = new Client({ name: 'doomed', version: '1' });
await client.connect(transport);
writeFileSync(${JSON.stringify(serverPidFile)}, String(transport.pid));
await client.callTool({ name: 'run', arguments: { command: ${JSON.stringify(sleeper(pidFile))} } });
`,
    );
    const proc = spawn('node', [client], {
      env: { ...process.env, SERVER_ENV: JSON.stringify(cleanEnv(join(work, 'run'))) },
      stdio: 'ignore',
    });
    try {
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(
        true,
      );
      const pid = Number(readFileSync(pidFile, 'utf8'));
      const serverPid = Number(readFileSync(serverPidFile, 'utf8'));
      expect(alive(pid)).toBe(true);
      proc.kill('SIGKILL');
      expect(await until(() => !alive(pid))).toBe(true);
      expect(await until(() => !alive(serverPid))).toBe(true);
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the server ends its runs, as closing stdin does (issue 20 #8)',
    async (signal) => {
      const work = dir();
      const pidFile = join(work, 'pid');
      const client = new Client({ name: 'ctxwrap-test', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: 'node',
        args: [BIN, 'mcp'],
        env: cleanEnv(join(work, 'run')),
      });
      await client.connect(transport);
      clients.push(client);
      const call = client
        .callTool({ name: 'run', arguments: { command: sleeper(pidFile) } })
        .catch((e: Error) => e);
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(
        true,
      );
      const pid = Number(readFileSync(pidFile, 'utf8'));
      const serverPid = transport.pid as number;
      expect(alive(pid)).toBe(true);
      process.kill(serverPid, signal);
      expect(await until(() => !alive(pid))).toBe(true);
      expect(await until(() => !alive(serverPid))).toBe(true);
      await call;
    },
  );

  it('says clearly when the cwd does not exist', async () => {
    const { client } = await connect(dir());
    const result = await client.callTool({
      name: 'run',
      arguments: { command: 'ls', cwd: '/nonexistent/ctxwrap-dir' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "ctxwrap: cwd /nonexistent/ctxwrap-dir does not exist; give an existing directory (or none, for the server's)",
    );
  });

  it('answers a NUL in the command and a usage error of the run as errors, in ctxwrap words (issue 20)', async () => {
    const { client } = await connect(dir());
    const nul = await client.callTool({ name: 'run', arguments: { command: 'echo a\u0000b' } });
    expect(nul.isError).toBe(true);
    expect(textOf(nul)).toMatch(/^ctxwrap: .*NUL/);
    expect(textOf(nul)).not.toMatch(/args\[|ERR_/);
    const usage = await client.callTool({
      name: 'run',
      arguments: { command: 'echo hi', timeout: '99999d' },
    });
    expect(usage.isError).toBe(true);
    expect(textOf(usage)).toMatch(/^ctxwrap: /);
  });

  // Adversarial round (issue 20, beyond its list): a command line of 128 KiB or more came back
  // as node's `spawn E2BIG`.
  it('answers a command too long for one argument in ctxwrap words', async () => {
    const { client } = await connect(dir());
    const long = await client.callTool({
      name: 'run',
      arguments: { command: `echo ${'a'.repeat(200_000)}` },
    });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toMatch(/^ctxwrap: the command is 200 kB long; .*script/);
  });

  it('answers a line that is not JSON, or not JSON-RPC, with a JSON-RPC error (issue 20)', async () => {
    const server = spawn('node', [BIN, 'mcp'], {
      env: cleanEnv(join(dir(), 'run')),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const lines: string[] = [];
      let rest = '';
      server.stdout.on('data', (c: Buffer) => {
        const parts = (rest + c.toString()).split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts);
      });
      server.stdin.write('not json{\n{"hello": 1}\n');
      expect(await until(() => lines.length >= 2)).toBe(true);
      const answers = lines.map((l) => JSON.parse(l));
      expect(answers).toEqual([
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      ]);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('answers a call of a tool that does not exist with a -32602 protocol error (issue 22 #11)', async () => {
    const { client } = await connect(dir());
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['list', 'note', 'read', 'run', 'search']);
    const answer = await client.callTool({ name: 'nosuch', arguments: {} }).catch((e: unknown) => e);
    expect(answer).toMatchObject({ code: -32602 });
    expect(textOf(await client.callTool({ name: 'list', arguments: {} }))).toContain('ctxwrap');
  });

  it('gives the prompt text as instructions at initialize', async () => {
    const { client } = await connect(dir());
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('ctxwrap read <id> --lines 120-180');
    expect(instructions).toContain('run = `ctxwrap -c`');
  });

  it('runs 12 commands at once with no MaxListenersExceededWarning', async () => {
    const { client, stderr } = await connect(dir());
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.callTool({ name: 'run', arguments: { command: `sleep 0.5; echo run-${i}` } }),
      ),
    );
    results.forEach((r, i) => {
      expect(textOf(r)).toContain(`run-${i}`);
    });
    expect(stderr()).not.toMatch(/MaxListeners/);
  });
});
