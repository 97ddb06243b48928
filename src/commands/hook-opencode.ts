/**
 * `ctxwrap hook opencode`: what the opencode plugin's `tool.execute.after` sends once a bash call
 * has run as the model wrote it: `{event, session_id, cwd, command, exit, output | output_file,
 * ms}`. The output (or the file opencode saved the whole of it to, when it cut it) is stored as
 * a result of the session's run directory and the answer is `{output}`, the summary the model
 * receives instead. Left alone (no answer): no exit status (a timeout or an abort, where opencode
 * adds its own note), no output, a command ctxwrap would not wrap (already wrapped, interactive),
 * or one whose output is already a view (`| tail -N`).
 */
import { chmodSync, copyFileSync, lstatSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { summariseStored } from '../capture/summarise-stored.js';
import { resolveRunConfig } from '../config.js';
import { decideCommand, SESSION_ID_PATTERN } from '../hook/claude-hook.js';
import { allocateResult, planResult } from '../store/allocate-result.js';

export interface OpencodeHookOptions {
  env: NodeJS.ProcessEnv;
  /** The hook's parent process, recorded as the run's owner. */
  parentPid: number;
  explain?: boolean;
  print: (text: string) => void;
  /** Where a session's results go. */
  runDirOf: (sessionId: string) => string;
}

const NO_RULES = { allow: [], ask: [], deny: [] };

/** The after-call hook; returns the exit status of `ctxwrap hook` (always 0: it fails open). */
export function opencodeHook(raw: Record<string, unknown>, opts: OpencodeHookOptions): number {
  const leave = (why: string) => {
    if (opts.explain) opts.print(`leave alone: ${why}\n`);
    return 0;
  };
  if (raw.event !== 'tool.execute.after')
    return leave(
      'not a tool.execute.after call (a plugin from an older ctxwrap: run `ctxwrap init opencode` again)',
    );
  const { command, cwd, exit } = raw;
  if (typeof command !== 'string' || command.trim() === '') return leave('no command');
  if (typeof raw.session_id !== 'string' || !SESSION_ID_PATTERN.test(raw.session_id))
    return leave('no valid session id');
  if (typeof cwd !== 'string' || !isAbsolute(cwd)) return leave('no absolute cwd in the input');
  if (typeof exit !== 'number' || !Number.isInteger(exit) || exit < 0 || exit > 255)
    return leave('no exit status (a timeout or an abort): opencode’s own note stays');
  const file = typeof raw.output_file === 'string' ? raw.output_file : undefined;
  if (file !== undefined && !(isAbsolute(file) && isRegularFile(file)))
    return leave('output_file is not a regular file');
  const text = typeof raw.output === 'string' ? raw.output : undefined;
  if (file === undefined && (text === undefined || text === '' || text === '(no output)'))
    return leave('no output');
  const decision = decideCommand(command, NO_RULES);
  if ('leave' in decision) return leave(decision.leave);
  if (decision.wrap.view) return leave('the output is already a view of the command’s');
  if (opts.explain) {
    opts.print('summarise: the output is stored and the model gets its summary\n');
    return 0;
  }
  try {
    const config = resolveRunConfig({ runDir: opts.runDirOf(raw.session_id) }, opts.env, () => {});
    const planned = planResult(config.runDir, decision.wrap.name);
    const ms = typeof raw.ms === 'number' && raw.ms >= 0 ? raw.ms : 0;
    allocateResult({
      runDir: config.runDir,
      id: planned.id,
      command: ['bash', '-c', command],
      cwd,
      pid: opts.parentPid,
      startedMs: Date.now() - ms,
    });
    if (file !== undefined) {
      copyFileSync(file, planned.output);
      chmodSync(planned.output, 0o600);
    } else writeFileSync(planned.output, text ?? '', { mode: 0o600, flag: 'wx' });
    let summary = '';
    summariseStored({
      runDir: config.runDir,
      id: planned.id,
      status: exit,
      budget: config.budget,
      tailRatio: config.tailRatio,
      inlineThreshold: config.inlineThreshold,
      print: (t) => {
        summary += t;
      },
    });
    opts.print(`${JSON.stringify({ output: summary })}\n`);
  } catch (error) {
    return leave(`cannot store the output: ${(error as Error).message}`);
  }
  return 0;
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
