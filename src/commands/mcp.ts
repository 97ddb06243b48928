/**
 * `ctxwrap mcp`: an MCP server on stdio, built on the official SDK. Its tools are the command
 * line's commands (run, read, search, list, note) with the same text out and the same one-line
 * errors, returned as tool errors. Stdout is the protocol: nothing else may be written there, so
 * every command prints into a buffer. A run is a ctxwrap child process of its own (see
 * mcp-runs.ts), so that each can be cancelled, time out of the request, and report progress.
 */
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { DEFAULT_SEARCH_LIMIT } from '../config.js';
import { resolveTtl } from '../env.js';
import { CtxwrapError } from '../errors.js';
import { parseDuration } from '../parse-duration.js';
import { promptText } from '../prompt-text.js';
import { listResults } from './list.js';
import { DEFAULT_WAIT_MS, McpRuns } from './mcp-runs.js';
import { noteResult } from './note.js';
import { readResult } from './read.js';
import { searchResults } from './search.js';

/** Most hits a search may ask for. */
const MAX_SEARCH_LIMIT = 100;

export interface McpOptions {
  runDir: string;
  version: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The ctxwrap script each run starts (`node <script> -c ...`); default: the running one. */
  scriptPath?: string;
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

/** What the server tells a client at initialize: the prompt text, for these tools. */
const MCP_INSTRUCTIONS = `The tools of this server do what the ctxwrap command line does: run = \`ctxwrap -c\`, read = \`ctxwrap read\`, search = \`ctxwrap search\`, list, note. A run that takes longer than its wait (50 s) answers with the output so far and keeps running; read its id later.\n\n${promptText('markdown')}`;

function buildServer(opts: McpOptions, runs: McpRuns = new McpRuns(opts)): McpServer {
  const server = new McpServer(
    { name: 'ctxwrap', version: opts.version },
    { instructions: MCP_INSTRUCTIONS },
  );
  registerRun(server, opts, runs);
  registerStoredTools(server, opts);
  return server;
}

/** The `run` tool: runs a command under capture (see McpRuns). */
function registerRun(server: McpServer, opts: McpOptions, runs: McpRuns): void {
  server.registerTool(
    'run',
    {
      description:
        'Run a shell command (through /bin/sh -c, in `cwd`), store its full output, and return a short summary: exit status, first and last lines, salient lines with their line numbers, and the result id for read and search.',
      inputSchema: {
        command: z.string().min(1).describe('the shell command line, e.g. "npm test 2>&1 | tail -n 200"'),
        cwd: z.string().optional().describe('working directory (default: the server’s)'),
        timeout: z.string().optional().describe('stop the command after this long: 30s, 5m, 1h (exit 124)'),
        wait: z
          .string()
          .optional()
          .describe(
            'answer after this long with the output so far while the command keeps running (default 50s)',
          ),
        budget: z
          .number()
          .int()
          .min(200)
          .optional()
          .describe('most characters the summary may print (default 2650)'),
      },
    },
    async ({ command, cwd, timeout, wait, budget }, extra) => {
      try {
        if (timeout !== undefined) parseDuration(timeout, '--timeout');
        return await runs.start({
          command,
          cwd: resolve(opts.cwd, cwd ?? '.'),
          ...(timeout !== undefined ? { timeout } : {}),
          waitMs: wait === undefined ? DEFAULT_WAIT_MS : parseDuration(wait, 'wait'),
          ...(budget !== undefined ? { budget } : {}),
          signal: extra.signal,
          progress:
            extra._meta?.progressToken === undefined
              ? undefined
              : (progress, message) =>
                  extra
                    .sendNotification({
                      method: 'notifications/progress',
                      params: {
                        progressToken: extra._meta?.progressToken as string | number,
                        progress,
                        message,
                      },
                    })
                    .catch(() => {}),
        });
      } catch (error) {
        if (error instanceof CtxwrapError)
          return { content: [{ type: 'text', text: `ctxwrap: ${error.message}` }], isError: true };
        throw error;
      }
    },
  );
}

/** The tools on what is stored: read, search, list and note, as the command line has them. */
function registerStoredTools(server: McpServer, opts: McpOptions): void {
  const base = { runDir: opts.runDir };
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
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_LIMIT)
          .optional()
          .describe(`most hits (default ${DEFAULT_SEARCH_LIMIT}, as the command line)`),
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
}

/**
 * Serves until the client closes stdin (or goes away) or a SIGTERM, SIGINT or SIGHUP: then every run still answering a request
 * is stopped (its process group ends); runs that already answered with a partial summary keep
 * going and store their output.
 */
export async function serveMcp(opts: McpOptions): Promise<number> {
  const runs = new McpRuns(opts);
  const server = buildServer(opts, runs);
  const transport = new StdioServerTransport();
  // SIGTERM, SIGINT and SIGHUP end the server as closing stdin does (Node's default would leave
  // the runs going); the exit code is then 128 + the signal's number.
  let signalled: NodeJS.Signals | undefined;
  const onSignal: Record<string, () => void> = {};
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
    process.stdin.once('close', () => done());
    for (const signal of STOP_SIGNALS) {
      onSignal[signal] = () => {
        signalled ??= signal;
        done();
      };
      process.on(signal, onSignal[signal] as () => void);
    }
  });
  answerBadMessages(transport);
  try {
    await server.connect(transport);
    refuseUnknownTools(transport);
    await closed;
    await runs.stopPending();
    await server.close();
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal[signal] as () => void);
  }
  return signalled ? 128 + (constants.signals[signalled] ?? 0) : 0;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** The tools buildServer registers (the e2e test checks this against tools/list). */
const TOOL_NAMES: readonly string[] = ['run', 'read', 'search', 'list', 'note'];

/**
 * A tools/call of a tool that does not exist gets a JSON-RPC error, -32602 Invalid params, as the
 * MCP specification asks (2025-06-18, tools, error handling: unknown tools are protocol errors);
 * the SDK (1.32) would answer it as a tool result with isError. Done at the transport, ahead of
 * the SDK's dispatch.
 */
function refuseUnknownTools(transport: StdioServerTransport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    const m = message as { id?: string | number; method?: string; params?: { name?: unknown } };
    if (m.method === 'tools/call' && m.id !== undefined && !TOOL_NAMES.includes(String(m.params?.name))) {
      const error = { code: -32602, message: `Unknown tool: ${String(m.params?.name)}` };
      void transport.send({ jsonrpc: '2.0', id: m.id, error } as never).catch(() => {});
      return;
    }
    deliver?.(message);
  };
}

/**
 * Answers a line that is not JSON (-32700 Parse error) or not a JSON-RPC message (-32600 Invalid
 * Request) as JSON-RPC 2.0 asks, with a null id; the SDK's transport only reports them to onerror.
 */
function answerBadMessages(transport: StdioServerTransport): void {
  transport.onerror = (error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === 'ZodError' ? -32600 : undefined;
    if (code === undefined) return;
    const message =
      code === -32700 ? 'Parse error: the line is not JSON' : 'Invalid Request: not a JSON-RPC 2.0 message';
    void transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as never).catch(() => {});
  };
}
