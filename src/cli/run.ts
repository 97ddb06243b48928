/** `ctxwrap run` (the default command): run a command, store its output, print the summary. */
import chalk from 'chalk';
import type { Command } from 'commander';
import { formatBytes, formatCount, formatDuration } from '../format.js';
import { cleanLine } from '../summary/clean.js';
import { colorize, type Declare, runDirFlag, withRunDir } from './io.js';
import { type RunCliOptions, runAction, type StatusLine } from './run-action.js';

export const declareRun: Declare = (program, { setExit }) => {
  const run = program
    .command('run', { isDefault: true })
    .description('run a command, store its output, print the summary (the default command)')
    .usage("[options] -- <command> [args...]  |  -c '<shell string>'  |  -")
    .argument('[command...]', 'the command and its arguments (after --), or - to read stdin')
    .option('-c, --command <string>', 'run a shell string through /bin/sh -c (pipelines, &&, redirections)')
    .option('--shell <shell>', 'the shell that runs -c, e.g. bash (env CTXWRAP_SHELL, default /bin/sh)')
    .option('--name <name>', 'name the result (the id starts with it); useful with -')
    .option('--budget <chars>', 'most characters the summary prints (env CTXWRAP_BUDGET, default 2650)')
    .option('--tail-ratio <ratio>', 'share of head+tail room for the tail, 0 to 1 (default 0.7)')
    .option('--inline-threshold <chars>', 'print outputs this short whole (default: the budget)')
    .option('--timeout <duration>', 'stop the command after 30s, 5m, ...; exit 124 (env CTXWRAP_TIMEOUT)')
    .option('--tee', 'also stream the full output to stderr as it arrives')
    .option(
      '--max-output <size>',
      'store at most this much of one output, e.g. 200M (env CTXWRAP_MAX_OUTPUT, default 1G)',
    )
    .option(
      '--min-free <size>',
      'stop storing rather than leave less free disk space (env CTXWRAP_MIN_FREE, default 64M)',
    )
    .option('--no-redact', 'print credentials as the command printed them (masked by default)')
    .passThroughOptions()
    .addHelpText(
      'after',
      "\nExamples:\n  ctxwrap -- npm test\n  ctxwrap -c 'make 2>&1 | tee build.log'\n  curl -s https://example.com | ctxwrap --name fetch -",
    )
    .action(async (args: string[], opts: RunCliOptions, cmd: Command) => {
      const term = { colorize, startStatus: statusLine };
      setExit(await runAction(args, { ...opts, runDir: runDirFlag(cmd, opts) }, term));
    });
  withRunDir(run);
};

/**
 * A one-line status on stderr for a person at a terminal, for runs longer than a second. When
 * the output has stopped on a line with no newline (a prompt: `Name? `) for a quarter second, the
 * status line shows that line and is not drawn again until more output comes, so that what the
 * person types is not wiped.
 */
function statusLine(): StatusLine {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const started = Date.now();
  let last: { bytes: number; lines: number; partial: Buffer } = {
    bytes: 0,
    lines: 0,
    partial: Buffer.alloc(0),
  };
  let drawnBytes = -1;
  let shown = false;
  let prompted = -1;
  const draw = () => {
    const elapsed = Date.now() - started;
    if (prompted === last.bytes) return;
    const waiting = last.partial.length > 0 && drawnBytes === last.bytes;
    drawnBytes = last.bytes;
    if (elapsed < 1000 && !waiting) return;
    shown = true;
    const state = `ctxwrap: running ${formatDuration(elapsed)} · ${formatCount(last.lines)} lines · ${formatBytes(last.bytes)}`;
    if (waiting) {
      prompted = last.bytes;
      const prompt = cleanLine(last.partial.toString('utf8'));
      process.stderr.write(`\r\x1b[2K${chalk.dim(`${state} · waiting for input?`)} ${prompt}`);
      return;
    }
    process.stderr.write(`\r\x1b[2K${chalk.dim(state)}`);
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    update(bytes, lines, partial) {
      last = { bytes, lines, partial };
    },
    stop() {
      clearInterval(timer);
      if (shown) process.stderr.write(prompted >= 0 ? '\n' : '\r\x1b[2K');
      shown = false;
    },
  };
}
