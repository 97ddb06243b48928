/**
 * The simple forms of `ctxwrap run`, parsed without commander: run's options (each value the
 * next word, as commander takes it), then `--` and the command, a command that is not a
 * subcommand's name, or nothing after `-c`. Anything else (help anywhere, version,
 * `--opt=value`, short option groups, an unknown option, a subcommand) is undefined: commander
 * parses it.
 */
import { COMMAND_NAMES } from './command-names.js';
import type { RunCliOptions } from './run-action.js';

const VALUES: Record<string, keyof RunCliOptions> = {
  '--run-dir': 'runDir',
  '-c': 'command',
  '--command': 'command',
  '--shell': 'shell',
  '--name': 'name',
  '--budget': 'budget',
  '--tail-ratio': 'tailRatio',
  '--inline-threshold': 'inlineThreshold',
  '--timeout': 'timeout',
  '--max-output': 'maxOutput',
  '--min-free': 'minFree',
};

const RESERVED: readonly string[] = [...COMMAND_NAMES, 'help'];

export function parseFastArgs(words: readonly string[]): { args: string[]; opts: RunCliOptions } | undefined {
  const opts: Record<string, string | boolean> = {};
  let i = 0;
  while (i < words.length) {
    const word = words[i++] as string;
    const key = VALUES[word];
    if (key !== undefined) {
      const value = words[i++];
      if (value === undefined) return undefined;
      opts[key] = value;
    } else if (word === '--tee') opts.tee = true;
    else if (word === '--no-redact') opts.redact = false;
    else if (word === '--') break;
    else if (word.length > 1 && word.startsWith('-')) return undefined;
    else {
      i--;
      break;
    }
  }
  const args = words.slice(i);
  if (args.length === 0 && opts.command === undefined) return undefined;
  // Commander shows help for a -h or --help anywhere it passes words on to run, even after '--'.
  if (words.some((w) => w === '-h' || w === '--help')) return undefined;
  if (args[0] !== undefined && RESERVED.includes(args[0])) return undefined;
  return { args, opts: opts as RunCliOptions };
}
