/**
 * The entry: composes the subcommands (each declares itself in src/cli/<name>.ts: its name,
 * options, help and how its options become plain ones), parses argv with commander, and exits
 * with the command's status. `run`, which every wrapped command pays for, is bundled in; the
 * other commands' implementations are loaded lazily.
 */
import chalk from 'chalk';
import { Command, CommanderError, Help } from 'commander';
import { declareClean } from './cli/clean.js';
import { COMMAND_NAMES } from './cli/command-names.js';
import { declareCompletion } from './cli/completion.js';
import { finish, ignoreOutputErrors, reportError } from './cli/exit.js';
import { declareFinish } from './cli/finish.js';
import { declareHook } from './cli/hook.js';
import { declareInit } from './cli/init.js';
import { type Declare, VERSION, warn, withRunDir } from './cli/io.js';
import { declareList } from './cli/list.js';
import { declareMcp } from './cli/mcp.js';
import { declareNote } from './cli/note.js';
import { declareOpen } from './cli/open.js';
import { declarePrompt } from './cli/prompt.js';
import { declareRead } from './cli/read.js';
import { declareRun } from './cli/run.js';
import { declareSearch } from './cli/search.js';
import { declareShow } from './cli/show.js';
import { declareStats } from './cli/stats.js';
import { EXIT_USAGE } from './errors.js';

/** Every subcommand, in the order help lists them. */
const COMMANDS: Declare[] = [
  declareRun,
  declareShow,
  // For agents (prompt, hook, init) and people (open, completion).
  declarePrompt,
  declareHook,
  declareInit,
  declareOpen,
  declareCompletion,
  // Recovering and managing results: read, list, note, clean, stats, search, mcp.
  declareRead,
  declareList,
  declareNote,
  declareClean,
  declareStats,
  declareSearch,
  declareMcp,
  // Hidden: the hook's wrapper ends with it.
  declareFinish,
];

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('ctxwrap');
  program
    .description('Run any command, keep every byte on disk, print a short summary an agent can act on.')
    .version(VERSION, '-V, --version')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(true)
    .configureHelp({ subcommandTerm: visibleTerm });
  withRunDir(program);
  for (const declare of COMMANDS) declare(program, { setExit });
  program.addHelpText(
    'after',
    "\nExamples:\n  ctxwrap -- npm test\n  ctxwrap -c 'make 2>&1 | tail -n 50'\n  ctxwrap show npm_3f2a9c1b\n  ctxwrap init claude",
  );
  return program;
}

/** A subcommand as the program's help lists it: `[options]` only when it has options to show. */
function visibleTerm(this: Help, cmd: Command): string {
  const term = Help.prototype.subcommandTerm.call(this, cmd);
  return cmd.options.some((o) => !o.hidden) ? term : term.replace(' [options]', '');
}

/** Entry point: parses argv, runs the command, exits with its status. */
export async function main(argv: string[] = process.argv): Promise<void> {
  // https://no-color.org: any non-empty NO_COLOR turns colour off.
  if (process.env.NO_COLOR) chalk.level = 0;
  ignoreOutputErrors();
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(withRunNamed(argv));
  } catch (error) {
    code = handleError(error);
  }
  finish(code);
}

/**
 * `ctxwrap --timeout 5s -- curl --help` runs curl: commander looks for a help flag in every word
 * it hands to the default command, those after `--` included, so when no subcommand is named
 * before `--`, `run` is named for it.
 */
function withRunNamed(argv: string[]): string[] {
  const words = argv.slice(2);
  const end = words.indexOf('--');
  if (end < 0 || words.slice(0, end).some((w) => (COMMAND_NAMES as readonly string[]).includes(w)))
    return argv;
  return [...argv.slice(0, 2), 'run', ...words];
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
  return reportError(error);
}
