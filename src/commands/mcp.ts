/**
 * `ctxwrap mcp`: an MCP server on stdio, built on the official SDK. Its tools are the command
 * line's commands (run, read, search, list, note) with the same text out and the same one-line
 * errors, returned as tool errors. Stdout is the protocol: nothing else may be written there, so
 * every command prints into a buffer and a wrapped command gets no stdin.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { resolveRunConfig } from '../config.js';
import { resolveTtl } from '../env.js';
import { CtxwrapError } from '../errors.js';
import { summarize } from '../summary/summarize.js';
import { listResults } from './list.js';
import { noteResult } from './note.js';
import { readResult } from './read.js';
import { runCommand } from './run.js';
import { searchResults } from './search.js';

export interface McpOptions {
  runDir: string;
  version: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface ToolText {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/** Runs a command function with its output collected; a CtxwrapError becomes a tool error. */
async function collect(call: (print: (text: string) => void) => Promise<number>): Promise<ToolText> {
  const parts: string[] = [];
  try {
    await call((text) => parts.push(text));
    return { content: [{ type: 'text', text: parts.join('') }] };
  } catch (error) {
    if (error instanceof CtxwrapError)
      return { content: [{ type: 'text', text: `ctxwrap: ${error.message}` }], isError: true };
    throw error;
  }
}

export function buildServer(opts: McpOptions): McpServer {
  const server = new McpServer({ name: 'ctxwrap', version: opts.version });
  const base = { runDir: opts.runDir };

  server.registerTool(
    'run',
    {
      description:
        'Run a shell command (through /bin/sh -c, in `cwd`), store its full output, and return a short summary: exit status, first and last lines, salient lines with their line numbers, and the result id for read and search.',
      inputSchema: {
        command: z.string().min(1).describe('the shell command line, e.g. "npm test 2>&1 | tail -n 200"'),
        cwd: z.string().optional().describe('working directory (default: the server’s)'),
        timeout: z.string().optional().describe('stop the command after this long: 30s, 5m, 1h (exit 124)'),
        budget: z
          .number()
          .int()
          .min(200)
          .optional()
          .describe('most characters the summary may print (default 2000)'),
      },
    },
    async ({ command, cwd, timeout, budget }) =>
      collect(async (print) => {
        const config = resolveRunConfig(
          {
            runDir: opts.runDir,
            ...(timeout !== undefined ? { timeout } : {}),
            ...(budget !== undefined ? { budget: String(budget) } : {}),
          },
          opts.env,
        );
        const notes: string[] = [];
        const passthrough: Buffer[] = [];
        const code = await runCommand({
          runDir: config.runDir,
          command: [config.shell, '-c', command],
          source: 'shell',
          cwd: cwd ?? opts.cwd,
          env: opts.env,
          budget: config.budget,
          tailRatio: config.tailRatio,
          inlineThreshold: config.inlineThreshold,
          redact: true,
          killGraceMs: config.killGraceMs,
          drainMs: config.drainMs,
          ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
          childStdin: 'ignore',
          print,
          passthrough: (chunk) => passthrough.push(chunk),
          warn: (text) => notes.push(`[ctxwrap: ${text}]`),
        });
        // Nothing could be stored (fail open): the output is still bounded, cleaned and masked.
        if (passthrough.length > 0) {
          const facts = { id: 'not-stored', path: '(not stored)', exitCode: code, durationMs: 0 };
          print(summarize(Buffer.concat(passthrough), facts, { budget: config.budget }));
        }
        for (const note of notes) print(`${note}\n`);
        return code;
      }),
  );

  server.registerTool(
    'read',
    {
      description:
        'Read lines of a stored result, numbered and bounded: lines "120-180", "first:100", "last:50", "grep:PATTERN" (JS regex; "grep:/PATTERN/i" for any case).',
      inputSchema: {
        id: z.string().describe('the result id from a summary header, e.g. npm_3f2a9c1b'),
        lines: z.string().optional().describe('which lines (default: from the start, as many as fit)'),
        context: z
          .number()
          .int()
          .min(0)
          .max(1000)
          .optional()
          .describe('lines of context around each grep match'),
        max_chars: z.number().int().min(0).optional().describe('most characters returned (default 4000)'),
      },
    },
    async ({ id, lines, context, max_chars }) =>
      collect((print) =>
        readResult({
          ...base,
          id,
          ...(lines !== undefined ? { lines } : {}),
          ...(context !== undefined ? { context } : {}),
          ...(max_chars !== undefined ? { maxChars: max_chars } : {}),
          print,
          printBytes: () => true,
          warn: print,
        }),
      ),
  );

  server.registerTool(
    'search',
    {
      description:
        'Search every stored result (or one, with id) for plain words, error codes or identifiers; returns the best few hits with their result id and line numbers.',
      inputSchema: {
        query: z.string().min(1).describe('plain words, e.g. "connection refused postgres" or "TS2345"'),
        id: z.string().optional().describe('search this result only'),
        limit: z.number().int().min(1).max(50).optional().describe('most hits (default 5)'),
      },
    },
    async ({ query, id, limit }) =>
      collect((print) =>
        searchResults({
          ...base,
          query,
          ...(id !== undefined ? { id } : {}),
          ...(limit !== undefined ? { limit } : {}),
          print,
        }),
      ),
  );

  server.registerTool(
    'list',
    {
      description:
        'List the stored results, newest first: id, age, exit status, lines, size, command and note.',
      inputSchema: {
        limit: z.number().int().min(0).optional().describe('most results (default 50; 0 for all)'),
      },
    },
    async ({ limit }) =>
      collect((print) =>
        listResults({
          ...base,
          ttlMs: resolveTtl(opts.env),
          ...(limit !== undefined ? { limit } : {}),
          print,
        }),
      ),
  );

  server.registerTool(
    'note',
    {
      description:
        'Keep a one-line note on a result (what mattered in it); shown by list and on search hits.',
      inputSchema: {
        id: z.string().describe('the result id'),
        text: z.string().describe('the note, one line; empty to remove it'),
      },
    },
    async ({ id, text }) => collect((print) => noteResult({ ...base, id, text, print })),
  );

  return server;
}

/** Serves until the client closes stdin. */
export async function serveMcp(opts: McpOptions): Promise<number> {
  const server = buildServer(opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}
