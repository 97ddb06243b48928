/**
 * The opencode plugin `ctxwrap init opencode` writes (opencode.ai/docs/plugins): a module whose
 * exported plugin returns a `tool.execute.before` hook; for the `bash` tool it hands the command
 * to `ctxwrap hook opencode` and, when ctxwrap answers with a rewritten command, changes
 * `output.args.command`. Anything unexpected (ctxwrap missing, slow, or silent) leaves the
 * command as it was.
 */
const PLUGIN_MARK =
  '// ctxwrap plugin: written by `ctxwrap init opencode`, removed by `ctxwrap init opencode --uninstall`.';

/** True for a plugin file ctxwrap wrote. */
export function isOurPlugin(text: string): boolean {
  return text.startsWith(PLUGIN_MARK);
}

/** The plugin's text, calling ctxwrap as the agent's shell would (`self`, quoted for a shell). */
export function opencodePlugin(self: string): string {
  return `${PLUGIN_MARK}
import { spawnSync } from 'node:child_process';

const CTXWRAP = ${JSON.stringify(`${self} hook opencode`)};

export const CtxwrapPlugin = async ({ directory }) => ({
  'tool.execute.before': async (input, output) => {
    if (input?.tool !== 'bash' || typeof output?.args?.command !== 'string') return;
    try {
      const payload = JSON.stringify({
        session_id: input.sessionID,
        cwd: output.args.workdir ?? directory,
        command: output.args.command,
      });
      const r = spawnSync('/bin/sh', ['-c', CTXWRAP], { input: payload, encoding: 'utf8', timeout: 5000 });
      if (r.status !== 0 || !r.stdout || r.stdout.trim() === '') return;
      const answer = JSON.parse(r.stdout);
      if (typeof answer.command === 'string') output.args.command = answer.command;
    } catch {
      // leave the command as it was
    }
  },
});
`;
}
