/** `ctxwrap run` (the default command): run a command, store its output, print the summary. */
import { fstatSync } from 'node:fs';
import chalk from 'chalk';
import type { Command } from 'commander';
import { runCommand } from '../commands/run.js';
import { resolveRunConfig } from '../config.js';
import { currentDirectory } from '../env.js';
import { CtxwrapError } from '../errors.js';
import { formatBytes, formatCount, formatDuration } from '../format.js';
import { colorize, type Declare, runDirFlag, warn, withRunDir } from './io.js';
import { typoHint } from './suggest.js';

interface RunCliOptions {
  runDir?: string;
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

export const declareRun: Declare = (program, { setExit }) => {
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
    .action(async (args: string[], opts: RunCliOptions, cmd: Command) => {
      const names = program.commands.map((c) => c.name());
      setExit(await runAction(args, { ...opts, runDir: runDirFlag(cmd, opts) }, names));
    });
  withRunDir(run);
};

async function runAction(args: string[], opts: RunCliOptions, names: string[]): Promise<number> {
  const config = resolveRunConfig(opts, process.env, warn);
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
    const hint = typoHint(command, names, process.env.PATH);
    if (hint) warn(hint);
  }
  const status = statusLine();
  try {
    return await runCommand({
      runDir: config.runDir,
      command,
      source,
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      cwd: currentDirectory(),
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
