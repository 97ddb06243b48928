import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, script, tempDir } from '../support.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(runDir: string): Promise<Client> {
  const client = new Client({ name: 'ctxwrap-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: 'node', args: [BIN, 'mcp'], env: cleanEnv(runDir) }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ type: string; text: string }> }).content[0] as { text: string }).text;

describe('ctxwrap mcp', () => {
  it('lists its tools with short, exact schemas', async () => {
    const client = await connect(tempDir());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['list', 'note', 'read', 'run', 'search']);
    const run = tools.find((t) => t.name === 'run');
    expect(run?.inputSchema.required).toEqual(['command']);
    for (const t of tools) expect((t.description ?? '').length).toBeLessThan(300);
  });

  it('runs a command, then reads, searches, notes and lists its result', async () => {
    const runDir = tempDir();
    const client = await connect(runDir);
    const run = textOf(
      await client.callTool({ name: 'run', arguments: { command: `${script('build-log.sh')} 2000 1234` } }),
    );
    const id = /^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\] exit 2 · 2,001 lines/.exec(run)?.[1] as string;
    expect(id, run).toBeDefined();
    expect(run).toContain("1234: src/widget.c:42:7: error: 'count' undeclared");

    const read = textOf(await client.callTool({ name: 'read', arguments: { id, lines: '1233-1235' } }));
    expect(read).toBe(
      "1233: CC   beta obj/beta1233.o\n1234: src/widget.c:42:7: error: 'count' undeclared (first use in this function)\n1235: CC   delta obj/delta1235.o\n",
    );

    const search = textOf(
      await client.callTool({ name: 'search', arguments: { query: 'count undeclared' } }),
    );
    expect(search).toContain(id);
    expect(search).toContain("1234: src/widget.c:42:7: error: 'count' undeclared");

    const note = textOf(
      await client.callTool({ name: 'note', arguments: { id, text: 'one error in widget.c' } }),
    );
    expect(note).toBe(`[ctxwrap ${id}] note: one error in widget.c\n`);
    const list = textOf(await client.callTool({ name: 'list', arguments: {} }));
    expect(list).toContain(id);
    expect(list).toContain('one error in widget.c');
  });

  it('still bounds and cleans the output when nothing can be stored', async () => {
    const runDir = join(tempDir(), 'a-file');
    writeFileSync(runDir, 'in the way\n');
    const client = await connect(runDir);
    const out = textOf(
      await client.callTool({
        name: 'run',
        arguments: { command: `printf '\\033[31mred\\033[0m\\n'; seq 1 20000` },
      }),
    );
    expect(out).toMatch(/^\[ctxwrap not-stored\] exit 0 · 20,001 lines/);
    expect(out).not.toContain('\x1b');
    expect(out.length).toBeLessThan(2300);
    expect(out).toContain('not storing output');
  });

  it('gives the command no stdin and keeps the protocol clean', async () => {
    const client = await connect(tempDir());
    const out = textOf(
      await client.callTool({ name: 'run', arguments: { command: 'cat; echo "read done"' } }),
    );
    expect(out).toBe('read done\n');
  });

  it('returns the one-line errors of the command line as tool errors', async () => {
    const client = await connect(tempDir());
    const bad = await client.callTool({ name: 'read', arguments: { id: '../../etc/passwd' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^ctxwrap: invalid result id '\.\.\/\.\.\/etc\/passwd': /);
    const spec = await client.callTool({ name: 'read', arguments: { id: 'npm_3f2a9c1b', lines: '5-2' } });
    expect(spec.isError).toBe(true);
    expect(textOf(spec)).toMatch(/^ctxwrap: /);
    const timeout = await client.callTool({ name: 'run', arguments: { command: 'true', timeout: 'soon' } });
    expect(timeout.isError).toBe(true);
    expect(textOf(timeout)).toBe(
      "ctxwrap: --timeout takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'soon')",
    );
  });
});
