/** `ctxwrap mcp`: run, read, search, list and note as MCP tools on stdio. */
import { currentDirectory } from '../env.js';
import { type Common, type Declare, runDirOf, VERSION, withRunDir } from './io.js';

export const declareMcp: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('mcp')
      .description('serve run, read, search, list and note as MCP tools on stdio')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap mcp                                # what an MCP client starts\n  claude mcp add ctxwrap -- ctxwrap mcp      # register it with Claude Code\n  { "command": "ctxwrap", "args": ["mcp"] }  # or in any client\'s config',
      ),
  ).action(async (opts: Common, cmd) => {
    const { serveMcp } = await import('../commands/mcp.js');
    setExit(
      await serveMcp({
        runDir: runDirOf(cmd, opts),
        version: VERSION,
        env: process.env,
        cwd: currentDirectory(),
      }),
    );
  });
};
