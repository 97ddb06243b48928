/** `ctxwrap hook <agent>`: the agent hook that rewrites the agent's shell commands. */
import { Argument } from 'commander';
import { type Common, type Declare, out, runDirFlag, withRunDir } from './io.js';

const HOOK_STDIN_LIMIT = 16 * 1024 * 1024;
const HOOK_STDIN_DEADLINE_MS = 5000;

export const declareHook: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('hook')
      .description("the agent hook: rewrite the agent's shell commands to run through ctxwrap (see init)")
      .addArgument(
        new Argument('<agent>', 'which agent calls it').choices(['claude', 'codex', 'gemini', 'opencode']),
      )
      .option('--explain', "print why the command is wrapped or left alone, instead of the hook's JSON")
      .addHelpText(
        'after',
        `\nExample (the hook reads the JSON Claude Code sends on stdin):\n  echo '{"session_id":"abc","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"}}' | ctxwrap hook claude --explain`,
      ),
    true,
  ).action(async (agent: string, opts: Common & { explain?: boolean }, cmd) => {
    const input = await readStdin(HOOK_STDIN_LIMIT, HOOK_STDIN_DEADLINE_MS);
    const { runHook } = await import('../commands/hook.js');
    const runDir = runDirFlag(cmd, opts);
    setExit(
      runHook({
        agent,
        input,
        env: runDir === undefined ? process.env : { ...process.env, CTXWRAP_RUN_DIR: runDir },
        scriptPath: process.argv[1] ?? '',
        parentPid: process.ppid,
        explain: opts.explain === true,
        print: out,
      }),
    );
  });
};

/** Reads stdin whole, up to `limit` bytes and `deadlineMs`; past either it gives '' (the hook then does nothing). */
function readStdin(limit: number, deadlineMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (text: string) => {
      clearTimeout(timer);
      process.stdin.removeAllListeners('data').removeAllListeners('end').removeAllListeners('error');
      process.stdin.pause();
      resolve(text);
    };
    const timer = setTimeout(() => done(''), deadlineMs);
    timer.unref();
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done('');
      else chunks.push(chunk);
    });
    process.stdin.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => done(''));
  });
}
