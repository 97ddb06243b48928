/**
 * `ctxwrap hook claude`: the Claude Code hook. On `PreToolUse` for the Bash tool it answers with
 * `hookSpecificOutput.updatedInput` whose command runs the original text in the agent's own
 * shell, its output going to a result file allocated here, then `ctxwrap finish` (or with
 * nothing, to leave it alone); on `SessionStart` it exports this session's run directory to the
 * session's Bash commands through `$CLAUDE_ENV_FILE`. It fails open: on any error or doubt it
 * prints nothing and exits 0, so the command runs as the agent wrote it.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_MAX_OUTPUT_BYTES, resolveRunConfig } from '../config.js';
import { resolveRunDir } from '../env.js';
import { CtxwrapError } from '../errors.js';
import {
  decide,
  decideCommand,
  type PreToolUseInput,
  SESSION_ID_PATTERN,
  type WrapPlan,
} from '../hook/claude-hook.js';
import { geminiMayAllow, geminiShellAllowed } from '../hook/gemini-allowed.js';
import { inShellText, inShellTextFifo } from '../hook/in-shell.js';
import {
  ancestorAllowRules,
  ancestorsAddRules,
  loadBashRules,
  settingsFiles,
} from '../hook/permission-rules.js';
import { shellQuote } from '../hook/quote.js';
import { allocateResult, planResult } from '../store/allocate-result.js';
import { appendLine } from '../store/append-line.js';
import { opencodeHook } from './hook-opencode.js';

export interface HookOptions {
  /** Which agent's protocol: one of HOOK_AGENTS (claude, codex, gemini, opencode). */
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

const HOOK_AGENTS = ['claude', 'codex', 'gemini', 'opencode'] as const;

/** Where a Claude Code session's results go. */
function sessionRunDir(env: NodeJS.ProcessEnv, sessionId: string): string {
  return join(resolveRunDir(undefined, env), 'sessions', sessionId);
}

export function runHook(opts: HookOptions): number {
  if (!(HOOK_AGENTS as readonly string[]).includes(opts.agent)) {
    throw new CtxwrapError(`hook takes ${HOOK_AGENTS.join(', ')} (got '${opts.agent}')`);
  }
  try {
    const input = JSON.parse(opts.input) as PreToolUseInput;
    if (input === null || typeof input !== 'object') return explainOr(opts, 'the input is not a JSON object');
    if (opts.agent === 'opencode')
      return opencodeHook(input as Record<string, unknown>, {
        env: opts.env,
        parentPid: opts.parentPid,
        print: opts.print,
        runDirOf: (id) => sessionRunDir(opts.env, id),
        ...(opts.explain ? { explain: true } : {}),
      });
    if (opts.agent !== 'claude') return otherAgent(opts.agent, input, opts);
    if (input.hook_event_name === 'SessionStart') return sessionStart(input, opts);
    const cwd = typeof input.cwd === 'string' && isAbsolute(input.cwd) ? input.cwd : undefined;
    const decision = decide(input, { rules: claudeRules(opts.parentPid, opts.env, cwd) });
    if ('leave' in decision) return explainOr(opts, `leave alone: ${decision.leave}`);
    if (cwd === undefined) return explainOr(opts, 'leave alone: no absolute cwd in the input');
    const text = wrapInShell(
      decision.wrap,
      {
        runDir: sessionRunDir(opts.env, input.session_id as string),
        cwd,
        shell: agentShell(opts.env),
        self: absoluteSelf(opts.scriptPath),
        pid: opts.parentPid,
        ...capOf(opts.env),
      },
      { allocate: !opts.explain },
    );
    if (typeof text !== 'string') return explainOr(opts, `leave alone: ${text.leave}`);
    if (opts.explain) {
      opts.print(`wrap${decision.wrap.allow ? ' (allow)' : ''}:\n${text}\n`);
      return 0;
    }
    const updatedInput = { ...(input.tool_input as Record<string, unknown>), command: text };
    const answer = {
      hookEventName: 'PreToolUse',
      ...(decision.wrap.allow
        ? {
            permissionDecision: 'allow',
            permissionDecisionReason: 'ctxwrap: every part of the command is allowed by your rules',
          }
        : {}),
      updatedInput,
    };
    opts.print(`${JSON.stringify({ hookSpecificOutput: answer })}\n`);
    return 0;
  } catch (error) {
    if (opts.agent === 'gemini' && !opts.explain) opts.print('{}\n');
    return explainOr(opts, `leave alone: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** The Bash rules of every settings file, plus `--allowedTools` given to Claude Code; undefined when unknown. */
function claudeRules(parentPid: number, env: NodeJS.ProcessEnv, cwd: string | undefined) {
  if (ancestorsAddRules(parentPid)) return undefined;
  const rules = loadBashRules(settingsFiles(env, cwd));
  if (rules === undefined) return undefined;
  return { ...rules, allow: [...rules.allow, ...ancestorAllowRules(parentPid)] };
}

interface InShellContext {
  runDir: string;
  cwd: string;
  /** The agent's shell (`bash` or `zsh`), to check the wrapped text's syntax. */
  shell: string;
  /** How the agent's shell calls ctxwrap: a quoted command, and the files it needs. */
  self: { command: string; needs: string[] };
  /** The agent's process, recorded as the run's owner. */
  pid: number;
  /** The cap on stored bytes (CTXWRAP_MAX_OUTPUT); none when undefined. */
  maxOutput?: number;
  /**
   * The agent refuses command and process substitutions and keeps an EXIT trap of its own
   * (Gemini CLI): the text has neither, and no trap.
   */
  noSubstitution?: boolean;
}

/**
 * The text the agent's shell runs for a wrapped command: allocates the result (its metadata says
 * running), then builds the in-shell text. Leaves the command alone when the agent's shell
 * does not read the wrapped text (a syntax check, `-n`) though it reads the original.
 */
function wrapInShell(
  plan: WrapPlan,
  ctx: InShellContext,
  opts: { allocate: boolean } = { allocate: true },
): string | { leave: string } {
  const shellPath = ctx.shell === 'zsh' ? 'zsh' : 'bash';
  const allocated = planResult(ctx.runDir, plan.name);
  const finish = `${ctx.self.command} _finish --run-dir ${shellQuote(ctx.runDir)} ${allocated.id}`;
  // The cap on a stored output, in the shell's `ulimit -f` blocks: bash counts 1024 bytes, zsh 512.
  const unit = shellPath === 'zsh' ? 512 : 1024;
  const cap =
    ctx.maxOutput !== undefined && ctx.maxOutput > 0
      ? Math.max(1, Math.floor(ctx.maxOutput / unit))
      : undefined;
  const options = {
    finish,
    needs: ctx.self.needs,
    output: allocated.output,
    ...(plan.view ? { view: plan.view } : {}),
    ...(cap !== undefined && Number.isSafeInteger(cap) ? { capBlocks: cap } : {}),
  };
  // Gemini CLI 0.61 refuses a command holding `$(...)` or `>(...)` ("Command injection
  // detected", seen in npm run test:agents): it gets the text without them (a FIFO), as zsh does.
  const plain = shellPath === 'zsh' || ctx.noSubstitution === true;
  const text = plain
    ? inShellTextFifo(plan.command, options, ctx.noSubstitution !== true)
    : inShellText(plan.command, options);
  const check = spawnSync(shellPath, ['-n', '-c', text], { stdio: 'ignore', timeout: 2000 });
  if (check.error || check.status !== 0)
    return { leave: `${shellPath} -n does not accept the wrapped command` };
  // `--explain` only says what it would do: it makes no result.
  if (opts.allocate)
    allocateResult({
      runDir: ctx.runDir,
      id: allocated.id,
      command: [shellPath, '-c', plan.command],
      cwd: ctx.cwd,
      pid: ctx.pid,
    });
  return text;
}

/**
 * How the agent's shell runs this ctxwrap, by absolute paths resolved now (a login profile may
 * reset PATH, issue 22 #3): this node and the real path of ctxwrap's script. The wrapper checks
 * both still exist and runs the command unwrapped if not.
 */
function absoluteSelf(scriptPath: string): { command: string; needs: string[] } {
  const script = realpathSync(scriptPath);
  return {
    command: `${shellQuote(process.execPath)} ${shellQuote(script)}`,
    needs: [process.execPath, script],
  };
}

const NO_RULES = { allow: [], ask: [], deny: [] };

/**
 * Codex CLI and Gemini CLI (opencode: hook-opencode.ts). Codex (PreToolUse, the same JSON as Claude Code's) applies
 * `updatedInput` only together with `permissionDecision: "allow"` (openai/codex#20527), which
 * would answer for Codex's own approval: ctxwrap rewrites there only when Codex asks nothing
 * anyway (`permission_mode` bypassPermissions), so no permission is ever widened. Gemini CLI
 * (BeforeTool for run_shell_command) merges `hookSpecificOutput.tool_input` into the call's
 * arguments and keeps its own confirmation.
 */
function otherAgent(agent: string, input: PreToolUseInput, opts: HookOptions): number {
  const raw = input as Record<string, unknown>;
  const toolInput = (raw.tool_input ?? {}) as Record<string, unknown>;
  const silent = agent === 'gemini' ? '{}\n' : '';
  const leave = (why: string) => {
    if (opts.explain) opts.print(`leave alone: ${why}\n`);
    else if (silent) opts.print(silent);
    return 0;
  };
  let command: unknown;
  let cwd = typeof raw.cwd === 'string' ? raw.cwd : undefined;
  if (agent === 'codex') {
    if (raw.hook_event_name !== 'PreToolUse' || raw.tool_name !== 'Bash')
      return leave('not a Bash PreToolUse call');
    if (raw.permission_mode !== 'bypassPermissions')
      return leave(
        'Codex applies a rewrite only with permissionDecision allow, which would answer for its approval',
      );
    command = toolInput.command;
  } else {
    if (raw.hook_event_name !== 'BeforeTool' || raw.tool_name !== 'run_shell_command')
      return leave('not a run_shell_command BeforeTool call');
    command = toolInput.command;
    // A background call runs detached by Gemini; the wrapper would make it wait (issue 22 #2).
    if (toolInput.is_background === true) return leave('runs in the background (is_background)');
    if (cwd !== undefined && typeof toolInput.dir_path === 'string') cwd = resolve(cwd, toolInput.dir_path);
  }
  if (typeof command !== 'string' || command.trim() === '') return leave('no command');
  if (typeof raw.session_id !== 'string' || !SESSION_ID_PATTERN.test(raw.session_id))
    return leave('no valid session id');
  if (cwd === undefined || !isAbsolute(cwd)) return leave('no absolute cwd in the input');
  const decision = decideCommand(command, NO_RULES);
  if ('leave' in decision) return leave(decision.leave);
  // Gemini's EXIT trap records background pids; the wrapper sets no trap of its own there, so a
  // command that may end the shell early would lose its summary: left alone.
  if (agent === 'gemini') {
    const root = typeof raw.cwd === 'string' ? raw.cwd : cwd;
    const entries = geminiShellAllowed(opts.env, opts.env.HOME || homedir(), root, opts.parentPid);
    if (entries === undefined)
      return leave('a Gemini settings file cannot be read: its allow-list is unknown');
    // Gemini checks its allow-list on the text it runs: wrapped, an allowed command would not be.
    if (geminiMayAllow(command, entries)) return leave('an entry of tools.allowed may allow it as written');
  }
  if (agent === 'gemini' && mayExitEarly(command))
    return leave(
      'may end the shell early (exit, set -e, a sourced script), and Gemini keeps its own EXIT trap',
    );
  const text = wrapInShell(
    decision.wrap,
    {
      runDir: sessionRunDir(opts.env, raw.session_id),
      cwd,
      shell: 'bash',
      self: absoluteSelf(opts.scriptPath),
      pid: opts.parentPid,
      noSubstitution: agent === 'gemini',
      ...capOf(opts.env),
    },
    { allocate: !opts.explain },
  );
  if (typeof text !== 'string') return leave(text.leave);
  if (opts.explain) {
    opts.print(`wrap:\n${text}\n`);
    return 0;
  }
  let answer: unknown;
  if (agent === 'codex')
    answer = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'ctxwrap: runs the command as written, storing its output',
        updatedInput: { ...toolInput, command: text },
      },
    };
  // Gemini replaces the call's arguments with tool_input: echo them all, only the command changed.
  else answer = { hookSpecificOutput: { tool_input: { ...toolInput, command: text } } };
  opts.print(`${JSON.stringify(answer)}\n`);
  return 0;
}

/** The cap on a stored output from the environment (its default when unset or wrong). */
function capOf(env: NodeJS.ProcessEnv): { maxOutput: number } {
  try {
    return { maxOutput: resolveRunConfig({}, env).maxOutputBytes };
  } catch {
    return { maxOutput: DEFAULT_MAX_OUTPUT_BYTES };
  }
}

/** True when a command may end the shell before the wrapper's last line: `exit`, `set -e`, sourcing. */
export function mayExitEarly(command: string): boolean {
  return /(^|[\s;&|({])(exit|return|source|\.|exec)(\s|;|$)|\bset\s+-\w*e|errexit/.test(command);
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
  if (!appendLine(file, line)) return explainOr(opts, `CLAUDE_ENV_FILE is not a regular file: ${file}`);
  return explainOr(opts, `appended to ${file}: ${line.trim()}`);
}

/** The shell Claude Code runs Bash commands in: bash, or zsh when that is the user's shell (by name, found on PATH). */
function agentShell(env: NodeJS.ProcessEnv): string {
  const chosen = env.CLAUDE_CODE_SHELL || env.SHELL || '';
  const name = basename(chosen);
  return name === 'zsh' ? 'zsh' : 'bash';
}
