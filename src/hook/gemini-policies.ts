/**
 * Gemini CLI's policy files (`*.toml` in the system, user and workspace `policies/` directories;
 * "always allow" in its prompt saves rules to `auto-saved.toml` there). Like `tools.allowed`,
 * an allow rule for the shell tool is checked on the text Gemini runs, after the BeforeTool
 * hook: its command prefixes are what the hook must not wrap. Read conservatively, by rule
 * block: an allow rule for the shell tool without `commandPrefix` (a regex, or none) counts as
 * allowing every command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The policy directories Gemini CLI reads. */
export function policyDirs(env: NodeJS.ProcessEnv, home: string, cwd: string): string[] {
  const system = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH
    ? dirname(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH)
    : '/etc/gemini-cli';
  return [join(system, 'policies'), join(home, '.gemini', 'policies'), join(cwd, '.gemini', 'policies')];
}

/** The command prefixes the allow rules for the shell tool name ('' for all); undefined when a file cannot be read. */
export function policyShellAllowed(dirs: readonly string[]): string[] | undefined {
  const prefixes: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.toml'));
    } catch {
      continue;
    }
    for (const name of names) {
      let text: string;
      try {
        text = readFileSync(join(dir, name), 'utf8');
      } catch {
        return undefined;
      }
      for (const block of text.split(/^\s*\[\[\s*rule\s*\]\]\s*$/m).slice(1))
        prefixes.push(...allowedBy(block));
    }
  }
  return prefixes;
}

/** The prefixes one rule block allows for the shell tool. */
function allowedBy(block: string): string[] {
  const tool = strings(tomlValue(block, 'toolName'));
  const decision = strings(tomlValue(block, 'decision'));
  if (!decision.includes('allow')) return [];
  if (tool.length > 0 && !tool.some((t) => t === 'run_shell_command' || t === '*')) return [];
  const prefixes = strings(tomlValue(block, 'commandPrefix'));
  return prefixes.length > 0 ? prefixes : [''];
}

/** The text of `key = value` in a block (up to the end of the line, or of a bracketed array). */
function tomlValue(block: string, key: string): string {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*(\\[[\\s\\S]*?\\]|.*)$`, 'm').exec(block);
  return m?.[1] ?? '';
}

/** The quoted strings of a TOML value (basic "..." or literal '...'). */
function strings(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)) {
    if (m[2] !== undefined) out.push(m[2]);
    else
      try {
        out.push(JSON.parse(`"${m[1]}"`));
      } catch {
        out.push(m[1] ?? '');
      }
  }
  return out;
}
