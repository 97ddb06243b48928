/** `ctxwrap show <id>`: a result's summary again. */
import { type Common, type Declare, print, runDirOf, withRunDir } from './io.js';

export const declareShow: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('show')
      .description('print a result’s summary again, byte for byte')
      .argument('<id>', 'the result id, as printed in the summary header')
      .addHelpText('after', '\nExample:\n  ctxwrap show npm_3f2a9c1b'),
  ).action(async (id: string, opts: Common, cmd) => {
    const { showResult } = await import('../commands/show.js');
    setExit(await showResult({ runDir: runDirOf(cmd, opts), id, print }));
  });
};
