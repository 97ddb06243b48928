/**
 * The one module that talks to the terminal: it parses argv with commander, turns options into
 * plain objects, calls a command, prints, and exits. Commands are loaded lazily so that a
 * wrapped run loads nothing it does not use.
 */
import chalk from 'chalk';
import { Command, CommanderError, Option } from 'commander';
import { resolveRunConfig, resolveSearchConfig } from './config.js';
import { CtxwrapError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';
import { formatBytes, formatCount, formatDuration } from './format.js';
import { resolveRunDir } from './store/run-dir.js';

declare const CTXWRAP_VERSION: string;

interface Common {
  runDir?: string;
}

const out = (text: string) => {
  process.stdout.write(text);
};
const warn = (text: string) => {
  process.stderr.write(`ctxwrap: ${text}\n`);
};

/** Colours ctxwrap's own lines on a terminal; an agent's pipe gets the text unchanged. */
function colorize(text: string): string {
  if (!process.stdout.isTTY || chalk.level === 0) return text;
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('[ctxwrap')) return chalk.dim(line);
      if (/^\+\d+: /.test(line)) return chalk.green(line);
      if (/^\d+: /.test(line)) return line.replace(/^\d+: /, (n) => chalk.cyan(n));
      return line;
    })
    .join('\n');
}

function withRunDir(cmd: Command): Command {
  return cmd.addOption(new Option('--run-dir <dir>', 'where results are stored (env CTXWRAP_RUN_DIR)'));
}

function runDirOf(program: Command, opts: Common): string {
  return resolveRunDir(opts.runDir ?? (program.opts() as Common).runDir);
}

/** A one-line status on stderr for a person at a terminal, for runs longer than a second. */
function statusLine(): { update(bytes: number, lines: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const started = Date.now();
  let last = { bytes: 0, lines: 0 };
  let shown = false;
  const draw = () => {
    const elapsed = Date.now() - started;
    if (elapsed < 1000) return;
    shown = true;
    process.stderr.write(
      `\r\x1b[2K${chalk.dim(`ctxwrap: running ${formatDuration(elapsed)} · ${formatCount(last.lines)} lines · ${formatBytes(last.bytes)}`)}`,
    );
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    update(bytes, lines) {
      last = { bytes, lines };
    },
    stop() {
      clearInterval(timer);
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

interface RunCliOptions extends Common {
  command?: string;
  name?: string;
  budget?: string;
  tailRatio?: string;
  inlineThreshold?: string;
  timeout?: string;
  tee?: boolean;
}

interface SearchCliOptions extends Common {
  id?: string;
  limit?: string;
  maxChars?: string;
  json?: boolean;
}

async function runAction(program: Command, args: string[], opts: RunCliOptions): Promise<number> {
  const config = resolveRunConfig({ ...opts, runDir: opts.runDir ?? (program.opts() as Common).runDir });
  let command: string[];
  let source: 'command' | 'shell' | 'stdin';
  if (opts.command !== undefined) {
    if (args.length > 0) throw new CtxwrapError(`-c takes the whole command as one string; got extra arguments: ${args.join(' ')}`);
    command = ['/bin/sh', '-c', opts.command];
    source = 'shell';
  } else if (args.length === 1 && args[0] === '-') {
    command = [];
    source = 'stdin';
  } else if (args.length === 0) {
    throw new CtxwrapError("nothing to run: give a command after '--' (ctxwrap -- npm test), -c 'shell string', or - to read stdin");
  } else {
    command = args;
    source = 'command';
  }
  const { runCommand } = await import('./commands/run.js');
  const status = statusLine();
  try {
    return await runCommand({
      runDir: config.runDir,
      command,
      source,
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      cwd: process.cwd(),
      env: process.env,
      budget: config.budget,
      tailRatio: config.tailRatio,
      inlineThreshold: config.inlineThreshold,
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      killGraceMs: config.killGraceMs,
      drainMs: config.drainMs,
      ...(opts.tee ? { tee: (chunk: Buffer) => process.stderr.write(chunk) } : {}),
      onProgress: (bytes, lines) => status.update(bytes, lines),
      print: (text) => {
        status.stop();
        out(colorize(text));
      },
      passthrough: (chunk, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
      warn,
      stdin: process.stdin,
    });
  } finally {
    status.stop();
  }
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('ctxwrap');
  program
    .description('Run any command, keep every byte on disk, print a short summary an agent can act on.')
    .version(typeof CTXWRAP_VERSION === 'string' ? CTXWRAP_VERSION : '0.0.0-dev', '-V, --version')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(true);
  withRunDir(program);

  const run = program
    .command('run', { isDefault: true })
    .description('run a command, store its output, print the summary (the default command)')
    .usage("[options] -- <command> [args...]  |  -c '<shell string>'  |  -")
    .argument('[command...]', 'the command and its arguments (after --), or - to read stdin')
    .option('-c, --command <string>', 'run a shell string through /bin/sh -c (pipelines, &&, redirections)')
    .option('--name <name>', 'name the result (the id starts with it); useful with -')
    .option('--budget <chars>', 'most characters the summary prints (env CTXWRAP_BUDGET, default 2000)')
    .option('--tail-ratio <ratio>', 'share of head+tail room for the tail, 0 to 1 (default 0.7)')
    .option('--inline-threshold <chars>', 'print outputs this short whole (default: the budget)')
    .option('--timeout <duration>', 'stop the command after 30s, 5m, ...; exit 124 (env CTXWRAP_TIMEOUT)')
    .option('--tee', 'also stream the full output to stderr as it arrives')
    .passThroughOptions()
    .addHelpText(
      'after',
      "\nExamples:\n  ctxwrap -- npm test\n  ctxwrap -c 'make 2>&1 | tee build.log'\n  curl -s https://example.com | ctxwrap --name fetch -",
    )
    .action(async (args: string[], opts: RunCliOptions) => setExit(await runAction(program, args, opts)));
  withRunDir(run);

  withRunDir(
    program
      .command('show')
      .description('print a result’s summary again, byte for byte')
      .argument('<id>', 'the result id, as printed in the summary header')
      .addHelpText('after', '\nExample:\n  ctxwrap show npm_3f2a9c1b'),
  ).action(async (id: string, opts: Common) => {
    const { showResult } = await import('./commands/show.js');
    setExit(await showResult({ runDir: runDirOf(program, opts), id, print: (t) => out(colorize(t)) }));
  });

  withRunDir(
    program
      .command('search')
      .description('find lines across every stored result: ranked, bounded, with line numbers')
      .argument('<words...>', 'what to look for, in plain words (identifiers, paths and error codes too)')
      .option('--id <id>', 'search this result only')
      .option('--limit <n>', 'most hits to print (default 5)')
      .option('--max-chars <n>', 'most characters to print in all (default 4000)')
      .option('--json', 'print the hits as one JSON object')
      .addHelpText(
        'after',
        '\nExit status: 0 when something matched, 1 when nothing did, 2 for bad input.\n\nExamples:\n  ctxwrap search connection refused postgres\n  ctxwrap search TS2345 --id tsc_81c0aa12\n  ctxwrap search "flaky timeout" --limit 3 --json',
      ),
  ).action(async (words: string[], opts: SearchCliOptions) => {
    const config = resolveSearchConfig({ ...opts, runDir: opts.runDir ?? (program.opts() as Common).runDir });
    const { searchResults } = await import('./commands/search.js');
    const { resolveTtl } = await import('./store/registry.js');
    setExit(
      await searchResults({
        runDir: config.runDir,
        query: words.join(' '),
        ...(opts.id !== undefined ? { id: opts.id } : {}),
        limit: config.limit,
        maxChars: config.maxChars,
        json: opts.json === true,
        coverage: { headBytes: config.indexHeadBytes, tailBytes: config.indexTailBytes },
        ttlMs: resolveTtl(),
        print: (t) => out(opts.json ? t : colorize(t)),
      }),
    );
  });

  return program;
}

/** Entry point: parses argv, runs the command, exits with its status. */
export async function main(argv: string[] = process.argv): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    code = handleError(error);
  }
  finish(code);
}

function handleError(error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
    const message = error.message.replace(/^error: /, '');
    warn(`${message} (see ctxwrap --help)`);
    return EXIT_USAGE;
  }
  if (error instanceof CtxwrapError) {
    warn(error.message);
    return error.exitCode;
  }
  const e = error as Error;
  warn(`internal error: ${e?.message ?? String(error)}${process.env.DEBUG ? `\n${e?.stack ?? ''}` : ' (set DEBUG=1 for details)'}`);
  return EXIT_FAILURE;
}

/** Exits once stdout has drained, so a summary is never cut off (and EPIPE never crashes). */
function finish(code: number): void {
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.write('', () => process.exit(code));
}
