/**
 * What `ctxwrap run` does with its parsed options, shared by commander's path and the fast path
 * (which loads neither commander nor chalk): resolve the configuration, pick the source, run.
 */
import { fstatSync } from 'node:fs';
import { runCommand } from '../commands/run.js';
import { resolveRunConfig } from '../config.js';
import { currentDirectory } from '../env.js';
import { CtxwrapError } from '../errors.js';
import { TeeEscaper } from '../tee-escape.js';
import { COMMAND_NAMES } from './command-names.js';
import { warn } from './exit.js';
import { typoHint } from './suggest.js';

/** The run options as typed, before they are checked. */
export interface RunCliOptions {
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
  maxOutput?: string;
  minFree?: string;
}

/** A one-line status while the command runs (on a terminal). */
export interface StatusLine {
  update(bytes: number, lines: number, partial: Buffer): void;
  stop(): void;
}

/** What a terminal adds: colour and a status line (the fast path, on pipes, adds neither). */
export interface RunTerminal {
  colorize: (text: string) => string;
  startStatus: () => StatusLine;
}

/** The subcommands a typo may have meant: hidden ones (`_finish`) are never suggested. */
const SUGGESTED = COMMAND_NAMES.filter((name) => !name.startsWith('_'));

export const PLAIN: RunTerminal = {
  colorize: (text) => text,
  startStatus: () => ({ update() {}, stop() {} }),
};

export async function runAction(args: string[], opts: RunCliOptions, term: RunTerminal): Promise<number> {
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
    const hint = typoHint(command, SUGGESTED, process.env.PATH);
    if (hint) warn(hint);
  }
  const { colorize } = term;
  // With --tee the output itself is on the terminal: a status line would draw over it.
  const status = opts.tee ? PLAIN.startStatus() : term.startStatus();
  // --tee shows the output with its escape sequences dropped and controls made visible (issue 20).
  const tee = opts.tee
    ? new TeeEscaper({ color: process.stderr.isTTY === true && process.env.NO_COLOR === undefined })
    : undefined;
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
      limits: { maxBytes: config.maxOutputBytes, minFreeBytes: config.minFreeBytes },
      ...(tee ? { tee: (chunk: Buffer) => process.stderr.write(tee.push(chunk)) } : {}),
      onProgress: (bytes, lines, partial) => status.update(bytes, lines, partial),
      print: (text) => {
        status.stop();
        // Resolves once the summary has left (or the reader has gone): until then a signal
        // cannot cut it short.
        return new Promise<void>((resolve) => process.stdout.write(colorize(text), () => resolve()));
      },
      passthrough: (chunk) => process.stdout.write(chunk),
      warn,
      ...(source === 'stdin'
        ? { stdin: process.stdin }
        : stdinIsPipe()
          ? { childStdin: { source: process.stdin, quietMs: config.stdinWaitMs } }
          : {}),
    });
  } finally {
    status.stop();
    if (tee) process.stderr.write(tee.end());
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
