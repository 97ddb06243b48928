/**
 * What every command declaration shares: the terminal's streams, colour, the run directory
 * option, and how an action hands back its exit code.
 */
import chalk from 'chalk';
import { type Command, Option } from 'commander';
import { resolveRunDir } from '../env.js';
import { warn } from './exit.js';

declare const CTXWRAP_VERSION: string;
export const VERSION = typeof CTXWRAP_VERSION === 'string' ? CTXWRAP_VERSION : '0.0.0-dev';

/** What a declaration gets: where its action's exit code goes. */
interface CliContext {
  setExit: (code: number) => void;
}

/** Adds one subcommand to the program. */
export type Declare = (program: Command, ctx: CliContext) => void;

/** The option every command takes (shown in help and completion unless `hidden`). */
export interface Common {
  runDir?: string;
}

export const out = (text: string) => {
  process.stdout.write(text);
};

export { warn };

/** Colours ctxwrap's own lines on a terminal; an agent's pipe gets the text unchanged. */
export function colorize(text: string): string {
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

/** Prints ctxwrap's own text, coloured on a terminal. */
export const print = (text: string) => out(colorize(text));

/** Writes bytes exactly; resolves false once stdout is closed (`ctxwrap read --raw x | head`). */
export function writeBytes(chunk: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (process.stdout.destroyed || !process.stdout.writable) resolve(false);
    else process.stdout.write(chunk, (error) => resolve(!error));
  });
}

/**
 * Adds `--run-dir`. Commands that store nothing accept it too (so it works everywhere, as before
 * or after the command name), hidden from their help.
 */
export function withRunDir(cmd: Command, hidden = false): Command {
  return cmd.addOption(
    new Option('--run-dir <dir>', 'where results are stored (env CTXWRAP_RUN_DIR)').hideHelp(hidden),
  );
}

/** The run directory: the command's `--run-dir`, else the program's, else the environment's. */
export function runDirOf(cmd: Command, opts: Common): string {
  return resolveRunDir(runDirFlag(cmd, opts));
}

/** The `--run-dir` given after the command name, else before it; undefined when neither. */
export function runDirFlag(cmd: Command, opts: Common): string | undefined {
  return opts.runDir ?? (cmd.parent?.opts() as Common | undefined)?.runDir;
}
