/**
 * The one module that talks to the terminal: it parses argv with commander, turns options into
 * plain objects, calls a command, prints, and exits. `run`, which every wrapped command pays
 * for, is bundled in; the other commands are loaded lazily.
 */
import { fstatSync } from 'node:fs';
import chalk from 'chalk';
import { Argument, Command, CommanderError, Option } from 'commander';
import { runCommand } from './commands/run.js';
import { parseWhole, resolveRunConfig, resolveSearchConfig } from './config.js';
import { CtxwrapError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';
import { formatBytes, formatCount, formatDuration } from './format.js';
import { parseDuration } from './parse-duration.js';
import { resolveRunDir } from './store/run-dir.js';
import { showControls } from './summary/clean.js';

declare const CTXWRAP_VERSION: string;

interface Common {
  runDir?: string;
}

const out = (text: string) => {
  process.stdout.write(text);
};
/** ctxwrap's own message on stderr: always one printable line, whatever it quotes. */
const warn = (text: string) => {
  process.stderr.write(`ctxwrap: ${showControls(text)}\n`);
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

/** Writes bytes exactly; resolves false once stdout is closed (`ctxwrap read --raw x | head`). */
function writeBytes(chunk: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (process.stdout.destroyed || !process.stdout.writable) resolve(false);
    else process.stdout.write(chunk, (error) => resolve(!error));
  });
}

interface ReadCliOptions extends Common {
  lines?: string;
  context?: string;
  raw?: boolean;
  numbers?: boolean;
  maxChars?: string;
  /** False with --no-redact. */
  redact?: boolean;
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
      shown = false;
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
  shell?: string;
  /** False with --no-redact. */
  redact?: boolean;
}

interface SearchCliOptions extends Common {
  id?: string;
  limit?: string;
  maxChars?: string;
  json?: boolean;
  /** False with --no-redact. */
  redact?: boolean;
}

async function runAction(program: Command, args: string[], opts: RunCliOptions): Promise<number> {
  const config = resolveRunConfig({ ...opts, runDir: opts.runDir ?? (program.opts() as Common).runDir });
  let command: string[];
  let source: 'command' | 'shell' | 'stdin';
  if (opts.command !== undefined) {
    if (args.length > 0)
      throw new CtxwrapError(
        `-c takes the whole command as one string; got extra arguments: ${args.join(' ')}`,
      );
    command = [config.shell, '-c', opts.command];
    source = 'shell';
  } else if (args.length === 1 && args[0] === '-') {
    command = [];
    source = 'stdin';
  } else if (args.length === 0) {
    throw new CtxwrapError(
      "nothing to run: give a command after '--' (ctxwrap -- npm test), -c 'shell string', or - to read stdin",
    );
  } else {
    command = args;
    source = 'command';
  }
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
      redact: opts.redact !== false,
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      killGraceMs: config.killGraceMs,
      drainMs: config.drainMs,
      ...(opts.tee ? { tee: (chunk: Buffer) => process.stderr.write(chunk) } : {}),
      onProgress: (bytes, lines) => status.update(bytes, lines),
      print: (text) => {
        status.stop();
        // Resolves once the summary has left (or the reader has gone): until then a signal
        // cannot cut it short.
        return new Promise<void>((resolve) => process.stdout.write(colorize(text), () => resolve()));
      },
      passthrough: (chunk, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
      warn,
      ...(source === 'stdin'
        ? { stdin: process.stdin }
        : stdinIsPipe()
          ? { childStdin: { source: process.stdin, quietMs: config.stdinWaitMs } }
          : {}),
    });
  } finally {
    status.stop();
  }
}

/**
 * True when ctxwrap's stdin is a pipe, FIFO or socket: the command gets it through a relay that
 * ends it if nothing comes (a terminal, a file or /dev/null is passed as it is).
 */
function stdinIsPipe(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
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
    .option('--shell <shell>', 'the shell that runs -c, e.g. bash (env CTXWRAP_SHELL, default /bin/sh)')
    .option('--name <name>', 'name the result (the id starts with it); useful with -')
    .option('--budget <chars>', 'most characters the summary prints (env CTXWRAP_BUDGET, default 2000)')
    .option('--tail-ratio <ratio>', 'share of head+tail room for the tail, 0 to 1 (default 0.7)')
    .option('--inline-threshold <chars>', 'print outputs this short whole (default: the budget)')
    .option('--timeout <duration>', 'stop the command after 30s, 5m, ...; exit 124 (env CTXWRAP_TIMEOUT)')
    .option('--tee', 'also stream the full output to stderr as it arrives')
    .option('--no-redact', 'print credentials as the command printed them (masked by default)')
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

  // TEMP (agents): the hidden step the in-shell hook runs after the agent's shell ran the command.
  program
    .command('_finish', { hidden: true })
    .argument('<id>')
    .argument('<status>')
    .option('--run-dir <dir>')
    .option('--view <filter>')
    .action(async (id: string, status: string, opts: { runDir?: string; view?: string }) => {
      const { finishCommand } = await import('./commands/finish.js');
      setExit(finishCommand({ id, status, ...opts, env: process.env, print: out }));
    });

  // Issue 5: agents (prompt, hook, init) and people (open, completion).
  program
    .command('prompt')
    .description(
      'print the instructions that teach an agent to use ctxwrap (for a system prompt or CLAUDE.md)',
    )
    .addOption(
      new Option('--format <format>', 'markdown or plain').choices(['markdown', 'plain']).default('markdown'),
    )
    .addHelpText('after', '\nExamples:\n  ctxwrap prompt >> AGENTS.md\n  ctxwrap prompt --format plain')
    .action(async (opts: { format: string }) => {
      const { printPrompt } = await import('./commands/prompt.js');
      setExit(printPrompt({ format: opts.format, print: out }));
    });

  program
    .command('hook')
    .description("the agent hook: rewrite the agent's shell commands to run through ctxwrap (see init)")
    .addArgument(
      new Argument('<agent>', 'which agent calls it').choices(['claude', 'codex', 'gemini', 'opencode']),
    )
    .option('--explain', "print why the command is wrapped or left alone, instead of the hook's JSON")
    .addHelpText(
      'after',
      `\nExample (the hook reads the JSON Claude Code sends on stdin):\n  echo '{"session_id":"abc","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"}}' | ctxwrap hook claude --explain`,
    )
    .action(async (agent: string, opts: { explain?: boolean }) => {
      const input = await readStdin(HOOK_STDIN_LIMIT, HOOK_STDIN_DEADLINE_MS);
      const { runHook } = await import('./commands/hook.js');
      setExit(
        runHook({
          agent,
          input,
          env: process.env,
          scriptPath: process.argv[1] ?? '',
          parentPid: process.ppid,
          explain: opts.explain === true,
          print: out,
        }),
      );
    });

  program
    .command('init')
    .description(
      'set an agent up to use ctxwrap: its hook and the instructions (Claude Code: settings.json, CLAUDE.md)',
    )
    .addArgument(new Argument('<agent>', 'which agent').choices(['claude', 'codex', 'gemini', 'opencode']))
    .option('--global', "the user's settings (~/.claude) instead of the project's (./.claude)")
    .option('--uninstall', 'remove what init installed, keeping everything else')
    .addHelpText(
      'after',
      '\nExamples:\n  ctxwrap init claude\n  ctxwrap init claude --global\n  ctxwrap init claude --uninstall',
    )
    .action(async (agent: string, opts: { global?: boolean; uninstall?: boolean }) => {
      const { initAgent } = await import('./commands/init.js');
      const options = { global: opts.global === true, uninstall: opts.uninstall === true };
      const scriptPath = process.argv[1] ?? '';
      setExit(initAgent({ agent, ...options, cwd: process.cwd(), env: process.env, scriptPath, print: out }));
    });

  withRunDir(
    program
      .command('open')
      .description(
        'page a stored output whole with $PAGER (default less -R); streams it when not on a terminal',
      )
      .argument('<id>', 'the result id, as printed in the summary header')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap open npm_3f2a9c1b\n  PAGER=most ctxwrap open npm_3f2a9c1b',
      ),
  ).action(async (id: string, opts: Common) => {
    const { openResult } = await import('./commands/open.js');
    const isTTY = process.stdout.isTTY === true;
    const runDir = runDirOf(program, opts);
    setExit(await openResult({ runDir, id, isTTY, pager: process.env.PAGER, output: process.stdout }));
  });

  program
    .command('completion')
    .description('print a shell completion script for bash or zsh')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .addHelpText(
      'after',
      '\nExamples:\n  eval "$(ctxwrap completion bash)"     # in ~/.bashrc\n  ctxwrap completion zsh > ~/.zfunc/_ctxwrap',
    )
    .action(async (shell: 'bash' | 'zsh') => {
      const { completionScript } = await import('./completion.js');
      out(completionScript(shell, programSpec(program)));
      setExit(0);
    });

  program.addHelpText(
    'after',
    "\nExamples:\n  ctxwrap -- npm test\n  ctxwrap -c 'make 2>&1 | tail -n 50'\n  ctxwrap show npm_3f2a9c1b\n  ctxwrap init claude",
  );
  // Recovering and managing results (issue 3): read, list, note, clean, stats.
  withRunDir(
    program
      .command('read')
      .description('print any part of a stored output: numbered, cleaned, bounded')
      .argument('<id>', 'the result id, as printed in the summary header')
      .option('--lines <spec>', 'first:N, last:N, A-B, A-, 1-20,900-950, grep:PATTERN, grep:/PATTERN/i')
      .option('--context <n>', 'lines of context around each grep: match')
      .option(
        '--raw',
        'exact stored bytes, no numbers, no cleaning (without --lines: the whole file, unbounded)',
      )
      .option('--no-numbers', 'leave out the line numbers')
      .option('--no-redact', 'show credentials as stored (masked by default)')
      .option(
        '--max-chars <n>',
        'most characters printed, the closing note included (default 4000; 0: no limit)',
      )
      .addHelpText(
        'after',
        "\nExamples:\n  ctxwrap read npm_3f2a9c1b --lines last:50\n  ctxwrap read tsc_0a1b2c3d --lines 'grep:TS2\\d{3}' --context 2\n  ctxwrap read make_5e6f7a8b --raw > build.log",
      ),
  ).action(async (id: string, opts: ReadCliOptions) => {
    const { readResult } = await import('./commands/read.js');
    setExit(
      await readResult({
        runDir: runDirOf(program, opts),
        id,
        ...(opts.lines !== undefined ? { lines: opts.lines } : {}),
        ...(opts.context !== undefined ? { context: parseWhole(opts.context, '--context', 0, 1000) } : {}),
        ...(opts.maxChars !== undefined ? { maxChars: parseWhole(opts.maxChars, '--max-chars', 0) } : {}),
        raw: opts.raw === true,
        numbers: opts.numbers !== false,
        redact: opts.redact !== false,
        ...(process.env.CTXWRAP_GREP_TIMEOUT
          ? { grepTimeoutMs: parseDuration(process.env.CTXWRAP_GREP_TIMEOUT, 'CTXWRAP_GREP_TIMEOUT') }
          : {}),
        print: (t) => out(colorize(t)),
        printBytes: writeBytes,
        warn,
      }),
    );
  });

  withRunDir(
    program
      .command('list')
      .description('the results of the run directory, newest first (running and incomplete ones marked)')
      .option('--json', 'one JSON array, for programs')
      .option('--limit <n>', 'most results listed (default 50; 0: all)')
      .addHelpText('after', '\nExamples:\n  ctxwrap list\n  ctxwrap list --json --limit 0'),
  ).action(async (opts: Common & { json?: boolean; limit?: string }) => {
    const { listResults } = await import('./commands/list.js');
    const { resolveTtl } = await import('./store/registry.js');
    const tty = process.stdout.isTTY && chalk.level > 0 && !opts.json;
    const outcomes = {
      ok: chalk.green,
      failed: chalk.red,
      running: chalk.yellow,
      incomplete: chalk.magenta,
      complete: chalk.green,
    };
    setExit(
      await listResults({
        runDir: runDirOf(program, opts),
        json: opts.json === true,
        ...(opts.limit !== undefined ? { limit: parseWhole(opts.limit, '--limit', 0) } : {}),
        ttlMs: resolveTtl(),
        print: out,
        ...(tty ? { paint: { dim: chalk.dim, outcome: (text, o) => outcomes[o](text) } } : {}),
      }),
    );
  });

  withRunDir(
    program
      .command('note')
      .description('keep a one-line note on a result (shown by list); an empty note removes it')
      .argument('<id>', 'the result id')
      .argument('<text>', 'the note, one line')
      .addHelpText('after', '\nExample:\n  ctxwrap note npm_3f2a9c1b "build ok, 3 warnings"'),
  ).action(async (id: string, text: string, opts: Common) => {
    const { noteResult } = await import('./commands/note.js');
    setExit(await noteResult({ runDir: runDirOf(program, opts), id, text, print: (t) => out(colorize(t)) }));
  });

  withRunDir(
    program
      .command('clean')
      .description('remove results older than the time to live (never one still running)')
      .option(
        '--older-than <duration>',
        'age of the results to remove: 30m, 2h, 7d (default: CTXWRAP_TTL, else 7d)',
      )
      .option('--all', 'remove every result and the run directory (end of a session)')
      .option('--dry-run', 'list what would be removed, with sizes, and remove nothing')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap clean --older-than 2h --dry-run\n  ctxwrap clean --all     # at the end of a session',
      ),
  ).action(async (opts: Common & { olderThan?: string; all?: boolean; dryRun?: boolean }) => {
    const { cleanResults } = await import('./commands/clean.js');
    const { resolveTtl } = await import('./store/registry.js');
    const { parseDuration } = await import('./parse-duration.js');
    const given = opts.olderThan ?? (process.env.CTXWRAP_TTL || undefined);
    setExit(
      await cleanResults({
        runDir: runDirOf(program, opts),
        olderThanMs:
          opts.olderThan !== undefined ? parseDuration(opts.olderThan, '--older-than') : resolveTtl(),
        olderThanText: given ?? '7d',
        all: opts.all === true,
        dryRun: opts.dryRun === true,
        print: (t) => out(colorize(t)),
      }),
    );
  });

  withRunDir(
    program
      .command('stats')
      .description('what the run directory saved: full output against what reached the agent')
      .option('--json', 'one JSON object, for programs')
      .addHelpText('after', '\nExamples:\n  ctxwrap stats\n  ctxwrap stats --json'),
  ).action(async (opts: Common & { json?: boolean }) => {
    const { showStats } = await import('./commands/stats.js');
    const { resolveTtl } = await import('./store/registry.js');
    setExit(
      await showStats({
        runDir: runDirOf(program, opts),
        json: opts.json === true,
        ttlMs: resolveTtl(),
        print: (t) => out(colorize(t)),
      }),
    );
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
      .option('--no-redact', 'show credentials as stored (masked by default)')
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
        redact: opts.redact !== false,
        coverage: { headBytes: config.indexHeadBytes, tailBytes: config.indexTailBytes },
        ttlMs: resolveTtl(),
        print: (t) => out(opts.json ? t : colorize(t)),
      }),
    );
  });

  withRunDir(
    program
      .command('mcp')
      .description('serve run, read, search, list and note as MCP tools on stdio')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap mcp                                # what an MCP client starts\n  claude mcp add ctxwrap -- ctxwrap mcp      # register it with Claude Code\n  { "command": "ctxwrap", "args": ["mcp"] }  # or in any client\'s config',
      ),
  ).action(async (opts: Common) => {
    const { serveMcp } = await import('./commands/mcp.js');
    setExit(
      await serveMcp({
        runDir: runDirOf(program, opts),
        version: typeof CTXWRAP_VERSION === 'string' ? CTXWRAP_VERSION : '0.0.0-dev',
        env: process.env,
        cwd: process.cwd(),
      }),
    );
  });

  return program;
}

/** The command tree as completion needs it: names, options, and what each first argument is. */
function programSpec(program: Command): import('./completion.js').ProgramSpec {
  const help = { names: ['-h', '--help'], description: 'display help', takesValue: false };
  const optionsOf = (cmd: Command) => [
    ...cmd.options
      .filter((o) => !o.hidden)
      .map((o) => ({
        names: [o.short, o.long].filter((n): n is string => n !== undefined),
        description: o.description,
        takesValue: o.required || o.optional,
        ...(o.argChoices ? { choices: o.argChoices } : {}),
      })),
    help,
  ];
  const argumentOf = (cmd: Command): import('./completion.js').CommandSpec['argument'] => {
    const arg = cmd.registeredArguments[0];
    if (arg === undefined) return undefined;
    if (arg.argChoices) return { kind: 'choices', name: arg.name(), values: arg.argChoices };
    if (arg.name() === 'id') return { kind: 'id' };
    return arg.variadic ? { kind: 'command' } : { kind: 'any' };
  };
  return {
    name: program.name(),
    defaultCommand: 'run',
    options: optionsOf(program),
    commands: program.commands
      .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
      .map((c) => {
        const argument = argumentOf(c);
        return {
          name: c.name(),
          description: c.description(),
          options: optionsOf(c),
          ...(argument ? { argument } : {}),
        };
      }),
  };
}

const HOOK_STDIN_LIMIT = 16 * 1024 * 1024;
const HOOK_STDIN_DEADLINE_MS = 5000;

/** Reads stdin whole, up to `limit` bytes and `deadlineMs`; past either it gives '' (the hook then does nothing). */
function readStdin(limit: number, deadlineMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (text: string) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data').removeAllListeners('end').removeAllListeners('error');
      process.stdin.pause();
      resolve(text);
    };
    const timer = setTimeout(() => done(''), deadlineMs);
    timer.unref();
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done('');
      else chunks.push(chunk);
    });
    process.stdin.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => done(''));
  });
}

/** Entry point: parses argv, runs the command, exits with its status. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // https://no-color.org: any non-empty NO_COLOR turns colour off.
  if (process.env.NO_COLOR) chalk.level = 0;
  // Nowhere to print (a reader gone: `ctxwrap ... | head`; a full disk or a file size limit under
  // a redirection) must not stop the run: the output is still stored and the exit status still
  // returned. There is no one to tell either, so the error goes no further.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
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
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.exitCode === 0
    )
      return 0;
    const message = error.message.replace(/^error: /, '');
    warn(`${message} (see ctxwrap --help)`);
    return EXIT_USAGE;
  }
  if (error instanceof CtxwrapError) {
    warn(error.message);
    return error.exitCode;
  }
  const e = error as Error;
  warn(
    `internal error: ${e?.message ?? String(error)}${process.env.DEBUG ? `\n${e?.stack ?? ''}` : ' (set DEBUG=1 for details)'}`,
  );
  return EXIT_FAILURE;
}

/** Exits once stdout has drained, so a summary is never cut off (and EPIPE never crashes). */
function finish(code: number): void {
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.write('', () => process.exit(code));
}
