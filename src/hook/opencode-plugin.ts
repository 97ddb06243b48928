/**
 * The opencode plugin `ctxwrap init opencode` writes (opencode.ai/docs/plugins, the V1 API that
 * opencode 1.18 loads from `.opencode/plugins/`). It leaves the bash tool's command alone, so
 * opencode's permission rules, `workdir`, `timeout` and exit status see exactly what the model
 * wrote; its `tool.execute.after` hook hands the finished call's output (or, when opencode cut
 * it, the file opencode saved it to) and exit status to `ctxwrap hook opencode`, which stores it
 * and answers with the summary the model then receives in place of the output. Anything
 * unexpected (ctxwrap missing, slow, or silent) leaves the output as it was.
 *
 * opencode's bash tool checks permissions on the command text inside its execute, after
 * `tool.execute.before`: a rewrite there (the first version of this plugin) made every
 * `permission.bash` allow rule miss (issue 22 #5), and no later hook can change the command.
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
import { resolve } from 'node:path';

const CTXWRAP = ${JSON.stringify(`${self} hook opencode`)};

export const CtxwrapPlugin = async ({ directory }) => {
  const started = new Map();
  return {
    'tool.execute.before': async (input, output) => {
      if (input?.tool === 'bash') started.set(input.callID, { at: Date.now(), args: output?.args });
    },
    'tool.execute.after': async (input, output) => {
      if (input?.tool !== 'bash') return;
      const before = started.get(input.callID);
      started.delete(input.callID);
      const start = before?.at;
      // opencode 1.18 passes the call's arguments to this hook; older ones only to the one before.
      const args = input.args ?? before?.args ?? {};
      const meta = output?.metadata ?? {};
      if (typeof args.command !== 'string' || typeof output?.output !== 'string') return;
      try {
        const payload = JSON.stringify({
          event: 'tool.execute.after',
          session_id: input.sessionID,
          cwd: typeof args.workdir === 'string' ? resolve(directory, args.workdir) : directory,
          command: args.command,
          exit: typeof meta.exit === 'number' ? meta.exit : null,
          ...(meta.truncated === true && typeof meta.outputPath === 'string'
            ? { output_file: meta.outputPath }
            : { output: output.output }),
          ...(start === undefined ? {} : { ms: Date.now() - start }),
        });
        const r = spawnSync('/bin/sh', ['-c', CTXWRAP], { input: payload, encoding: 'utf8', timeout: 10000 });
        if (r.status !== 0 || !r.stdout || r.stdout.trim() === '') return;
        const answer = JSON.parse(r.stdout);
        if (typeof answer.output === 'string') output.output = answer.output;
      } catch {
        // leave the output as it was
      }
    },
  };
};
`;
}
