/** `ctxwrap init <agent>`: install (or remove) the hook and the instructions. */
import { Argument } from 'commander';
import { currentDirectory } from '../env.js';
import { type Declare, out, withRunDir } from './io.js';

export const declareInit: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('init')
      .description(
        'set an agent up to use ctxwrap: its hook and the instructions (Claude Code, Codex CLI, Gemini CLI, opencode)',
      )
      .addArgument(new Argument('<agent>', 'which agent').choices(['claude', 'codex', 'gemini', 'opencode']))
      .option(
        '--global',
        "the user's settings (~/.claude, ~/.codex, ~/.gemini, ~/.config/opencode) instead of the project's",
      )
      .option('--uninstall', 'remove what init installed, keeping everything else')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap init claude\n  ctxwrap init codex --global\n  ctxwrap init gemini\n  ctxwrap init opencode --uninstall',
      ),
    true,
  ).action(async (agent: string, opts: { global?: boolean; uninstall?: boolean }) => {
    const { initAgent } = await import('../commands/init.js');
    const options = { global: opts.global === true, uninstall: opts.uninstall === true };
    const scriptPath = process.argv[1] ?? '';
    setExit(
      initAgent({ agent, ...options, cwd: currentDirectory(), env: process.env, scriptPath, print: out }),
    );
  });
};
