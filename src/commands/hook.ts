/**
 * `ctxwrap hook claude`: the Claude Code hook. On `PreToolUse` for the Bash tool it answers with
 * `hookSpecificOutput.updatedInput` whose command runs the original inside ctxwrap (or with
 * nothing, to leave it alone); on `SessionStart` it exports this session's run directory to the
 * session's Bash commands through `$CLAUDE_ENV_FILE`. It fails open: on any error it prints
 * nothing and exits 0, so the command runs as the agent wrote it.
 */
import { appendFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { resolveRunDir } from '../env.js';
import { CtxwrapError } from '../errors.js';
import { decide, type PreToolUseInput, SESSION_ID_PATTERN, shellQuote } from '../hook/claude-hook.js';
import { ancestorsAddRules, loadBashRules, settingsFiles } from '../hook/permission-rules.js';

export interface HookOptions {
  /** Which agent's protocol: only `claude` for now. */
  agent: string;
  /** The hook's JSON input (stdin). */
  input: string;
  env: NodeJS.ProcessEnv;
  /** The path of the running ctxwrap script (process.argv[1]). */
  scriptPath: string;
  /** The hook's parent process, to see whether Claude Code was started with rule flags. */
  parentPid: number;
  /** Print why the command is wrapped or left alone, in words, instead of the JSON answer. */
  explain?: boolean;
  print: (text: string) => void;
}

export const HOOK_AGENTS = ['claude'] as const;

/** Where a Claude Code session's results go. */
export function sessionRunDir(env: NodeJS.ProcessEnv, sessionId: string): string {
  return join(resolveRunDir(undefined, env), 'sessions', sessionId);
}

export function runHook(opts: HookOptions): number {
  if (!(HOOK_AGENTS as readonly string[]).includes(opts.agent)) {
    throw new CtxwrapError(`hook takes ${HOOK_AGENTS.join(', ')} (got '${opts.agent}')`);
  }
  try {
    const input = JSON.parse(opts.input) as PreToolUseInput;
    if (input === null || typeof input !== 'object') return explainOr(opts, 'the input is not a JSON object');
    if (input.hook_event_name === 'SessionStart') return sessionStart(input, opts);
    const decision = decide(input, {
      self: selfCommand(opts.scriptPath, opts.env),
      sessionDir: (id) => sessionRunDir(opts.env, id),
      shell: agentShell(opts.env),
      rules: ancestorsAddRules(opts.parentPid)
        ? undefined
        : loadBashRules(settingsFiles(opts.env, typeof input.cwd === 'string' ? input.cwd : undefined)),
    });
    if ('leave' in decision) return explainOr(opts, `leave alone: ${decision.leave}`);
    if (opts.explain) {
      opts.print(`wrap: ${decision.wrap}\n`);
      return 0;
    }
    const updatedInput = { ...(input.tool_input as Record<string, unknown>), command: decision.wrap };
    opts.print(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput } })}\n`);
    return 0;
  } catch (error) {
    return explainOr(opts, `leave alone: ${(error as Error)?.message ?? String(error)}`);
  }
}

function explainOr(opts: HookOptions, why: string): number {
  if (opts.explain) opts.print(`${why}\n`);
  return 0;
}

/** SessionStart: `export CTXWRAP_RUN_DIR=...` into the file Claude Code sources before each Bash command. */
function sessionStart(input: PreToolUseInput, opts: HookOptions): number {
  const file = opts.env.CLAUDE_ENV_FILE;
  if (typeof input.session_id !== 'string' || !SESSION_ID_PATTERN.test(input.session_id))
    return explainOr(opts, 'no valid session id');
  if (!file || !isAbsolute(file)) return explainOr(opts, 'no CLAUDE_ENV_FILE');
  const line = `export CTXWRAP_RUN_DIR=${shellQuote(sessionRunDir(opts.env, input.session_id))}\n`;
  appendFileSync(file, line, { mode: 0o600 });
  return explainOr(opts, `appended to ${file}: ${line.trim()}`);
}

/** How the agent's shell can call this ctxwrap: `ctxwrap` when that is on PATH, else its path. */
export function selfCommand(scriptPath: string, env: NodeJS.ProcessEnv): string {
  let self: string;
  try {
    self = realpathSync(scriptPath);
  } catch {
    return 'ctxwrap';
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      const candidate = join(dir, 'ctxwrap');
      if (statSync(candidate).isFile() && realpathSync(candidate) === self) return 'ctxwrap';
    } catch {
      /* not there */
    }
  }
  return shellQuote(self);
}

/** The shell Claude Code runs Bash commands in: bash, or zsh when that is the user's shell (by name, found on PATH). */
export function agentShell(env: NodeJS.ProcessEnv): string {
  const chosen = env.CLAUDE_CODE_SHELL || env.SHELL || '';
  const name = basename(chosen);
  return name === 'zsh' ? 'zsh' : 'bash';
}
