/** `ctxwrap prompt`: the instructions that teach an agent to use ctxwrap. */
import { Option } from 'commander';
import { type Declare, out, withRunDir } from './io.js';

export const declarePrompt: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('prompt')
      .description(
        'print the instructions that teach an agent to use ctxwrap (for a system prompt or CLAUDE.md)',
      )
      .addOption(
        new Option('--format <format>', 'markdown or plain')
          .choices(['markdown', 'plain'])
          .default('markdown'),
      )
      .addHelpText('after', '\nExamples:\n  ctxwrap prompt >> AGENTS.md\n  ctxwrap prompt --format plain'),
    true,
  ).action(async (opts: { format: string }) => {
    const { printPrompt } = await import('../commands/prompt.js');
    setExit(printPrompt({ format: opts.format, print: out }));
  });
};
