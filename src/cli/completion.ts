/** `ctxwrap completion <shell>`: a completion script made from the command tree itself. */
import { Argument, type Command } from 'commander';
import type { CommandSpec, ProgramSpec } from '../completion.js';
import { type Declare, out, withRunDir } from './io.js';

export const declareCompletion: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('completion')
      .description('print a shell completion script for bash or zsh')
      .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
      .addHelpText(
        'after',
        '\nExamples:\n  eval "$(ctxwrap completion bash)"     # in ~/.bashrc\n  ctxwrap completion zsh > ~/.zfunc/_ctxwrap',
      ),
    true,
  ).action(async (shell: 'bash' | 'zsh') => {
    const { completionScript } = await import('../completion.js');
    out(completionScript(shell, programSpec(program)));
    setExit(0);
  });
};

/** The command tree as completion needs it: names, options, and what each first argument is. */
function programSpec(program: Command): ProgramSpec {
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
  const argumentOf = (cmd: Command): CommandSpec['argument'] => {
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
