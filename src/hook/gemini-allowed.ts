/**
 * Gemini CLI's allow-list for its shell tool. Gemini checks `tools.allowed` (settings) and
 * `--allowed-tools` (its command line) against the command text it is about to run, after the
 * BeforeTool hook: a command an entry `run_shell_command(npm test)` allows would, once wrapped,
 * no longer be allowed (seen with 0.61.0 in `npm run test:agents`: "Tool execution denied by
 * policy"). So the hook leaves alone every command an entry may allow. A command no entry can
 * allow gets the same verdict wrapped or not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonWithoutComments } from '../store/edit-config-file.js';
import { policyDirs, policyShellAllowed } from './gemini-policies.js';
import { ancestorArgv, ruleMightMatch } from './permission-rules.js';

const SHELL_TOOL = /^\s*(?:run_shell_command|ShellTool)\s*(?:\(([\s\S]*)\))?\s*$/;

/** The settings files Gemini CLI reads: system, user, project (missing ones skipped). */
function settingsFiles(env: NodeJS.ProcessEnv, home: string, cwd: string): string[] {
  return [
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || '/etc/gemini-cli/settings.json',
    join(home, '.gemini', 'settings.json'),
    join(cwd, '.gemini', 'settings.json'),
  ];
}

/**
 * The shell-tool entries of every allow-list (the text in parentheses, or '' for the whole
 * tool), and the command prefixes of the policy files' allow rules; undefined when a settings
 * or policy file exists but cannot be read (the list is unknown).
 */
export function geminiShellAllowed(
  env: NodeJS.ProcessEnv,
  home: string,
  cwd: string,
  parentPid: number,
): string[] | undefined {
  const entries: string[] = [];
  for (const file of settingsFiles(env, home, cwd)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    try {
      const allowed = JSON.parse(jsonWithoutComments(text))?.tools?.allowed;
      if (Array.isArray(allowed)) entries.push(...allowed.filter((e) => typeof e === 'string'));
    } catch {
      return undefined;
    }
  }
  for (const args of ancestorArgv(parentPid))
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg.startsWith('--allowed-tools=')) entries.push(...arg.slice(16).split(','));
      else if (arg === '--allowed-tools')
        for (let j = i + 1; j < args.length && !(args[j] as string).startsWith('-'); j++)
          entries.push(...(args[j] as string).split(','));
    }
  const policies = policyShellAllowed(policyDirs(env, home, cwd));
  if (policies === undefined) return undefined;
  return [
    ...entries.flatMap((e) => {
      const m = SHELL_TOOL.exec(e);
      return m ? [m[1] ?? ''] : [];
    }),
    ...policies,
  ];
}

/** True when one of the entries may allow the command (a prefix that appears in it, or the whole tool). */
export function geminiMayAllow(command: string, entries: readonly string[]): boolean {
  return entries.some((prefix) => prefix.trim() === '' || ruleMightMatch(`Bash(${prefix}:*)`, [command]));
}
