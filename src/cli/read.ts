/** `ctxwrap read <id>`: any part of a stored output. */
import { readEnv } from '../env.js';
import { parseWhole } from '../parse-number.js';
import { type Common, type Declare, print, runDirOf, warn, withRunDir, writeBytes } from './io.js';

interface ReadCliOptions extends Common {
  lines?: string;
  context?: string;
  records?: boolean;
  raw?: boolean;
  numbers?: boolean;
  maxChars?: string;
  /** False with --no-redact. */
  redact?: boolean;
}

export const declareRead: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('read')
      .description('print any part of a stored output: numbered, cleaned, bounded')
      .argument('<id>', 'the result id, as printed in the summary header')
      .option('--lines <spec>', 'first:N, last:N, A-B, A-, 1-20,900-950, grep:PATTERN, grep:/PATTERN/i')
      .option('--context <n>', 'lines of context around each grep: match')
      .option(
        '--records',
        'with grep:, show above each match the line that starts its record (a git log commit, an ls -R directory)',
      )
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
  ).action(async (id: string, opts: ReadCliOptions, cmd) => {
    const { readResult } = await import('../commands/read.js');
    const runDir = runDirOf(cmd, opts);
    const context = opts.context === undefined ? undefined : parseWhole(opts.context, '--context', 0, 1000);
    const maxChars = opts.maxChars === undefined ? undefined : parseWhole(opts.maxChars, '--max-chars', 0);
    const grepTimeoutMs = readEnv(process.env, 'CTXWRAP_GREP_TIMEOUT');
    setExit(
      await readResult({
        runDir,
        id,
        ...(opts.lines !== undefined ? { lines: opts.lines } : {}),
        ...(context !== undefined ? { context } : {}),
        ...(opts.records ? { records: true } : {}),
        ...(maxChars !== undefined ? { maxChars } : {}),
        raw: opts.raw === true,
        numbers: opts.numbers !== false,
        redact: opts.redact !== false,
        ...(grepTimeoutMs !== undefined ? { grepTimeoutMs } : {}),
        print,
        printBytes: writeBytes,
        warn,
      }),
    );
  });
};
