/** `ctxwrap note <id> <text>`: a one-line note on a result. */
import { type Common, type Declare, print, runDirOf, withRunDir } from './io.js';

export const declareNote: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('note')
      .description('keep a one-line note on a result (shown by list); an empty note removes it')
      .argument('<id>', 'the result id')
      .argument('<text>', 'the note, one line')
      .addHelpText('after', '\nExample:\n  ctxwrap note npm_3f2a9c1b "build ok, 3 warnings"'),
  ).action(async (id: string, text: string, opts: Common, cmd) => {
    const { noteResult } = await import('../commands/note.js');
    setExit(await noteResult({ runDir: runDirOf(cmd, opts), id, text, print }));
  });
};
