/**
 * Would Claude Code allow a Bash command by the user's allow rules? Claude Code splits a
 * compound command at `&&`, `||`, `;`, `|` and newlines and allows it only when every part is
 * matched by an allow rule (permissions reference, code.claude.com/docs/en/permissions:
 * "Bash(npm run test:*)" is a prefix rule, "Bash(npm test *)" a wildcard whose `*` matches any
 * text, a rule with neither an exact command, "Bash" or "Bash(*)" the whole tool). This answer
 * may only ever be narrower than Claude Code's: anything it is not sure of (an expansion, a
 * substitution, a redirection other than `2>&1`, a glob, an assignment, a keyword, odd
 * spacing) is "no", and the command is then left alone rather than wrapped with `allow`.
 */
import { commandWords, type ParsedLine } from './shell-words.js';

const OPS = new Set(['&&', '||', ';', '|', '\n', '']);
/** Characters that make the text of a part mean more than its words. */
const UNSURE = /[<>$`(){}[\]*?~!#\\\r\v\f]/;

/** True when every part of `command` is matched by one of the allow rules, as Claude Code matches. */
export function allowedByRules(command: string, parsed: ParsedLine, allow: readonly string[]): boolean {
  if (parsed.heredocs.length > 0 || parsed.substitutions.length > 0) return false;
  // `2>&1` is the one redirection let through: Claude Code strips redirections before matching.
  const stripped = command.replace(/[ \t]+2>&1(?=[ \t\n;&|]|$)/g, '');
  if (UNSURE.test(stripped.replace(/'[^']*'|"[^"$`\\]*"/g, "''"))) return false;
  const parts: string[] = [];
  let rebuilt = '';
  for (const cmd of parsed.commands) {
    if (!OPS.has(cmd.end) || cmd.assignments.length > 0) return false;
    const words = commandWords(cmd);
    if (words.length !== cmd.words.length || words.length === 0) return false;
    if (words.some((w) => w.dynamic)) return false;
    const part = words.map((w) => w.raw).join(' ');
    parts.push(part);
    rebuilt +=
      cmd.end === ''
        ? part
        : cmd.end === '\n'
          ? `${part}\n`
          : cmd.end === ';'
            ? `${part}; `
            : `${part} ${cmd.end} `;
  }
  // The parts, joined back with single spaces, must be the command as written: what Claude Code
  // matches is then exactly what was checked here.
  if (rebuilt.trimEnd() !== stripped.trimEnd()) return false;
  return parts.every((part) => allow.some((rule) => ruleAllows(rule, part)));
}

/** True when one allow rule matches one part (a simple command as written). */
function ruleAllows(rule: string, part: string): boolean {
  const m = /^\s*Bash\s*(?:\(([\s\S]*)\))?\s*$/.exec(rule);
  if (!m) return false;
  const pattern = m[1]?.trim();
  if (pattern === undefined || pattern === '' || pattern === '*') return true;
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2);
    if (prefix.includes('*')) return false;
    return part === prefix || part.startsWith(`${prefix} `);
  }
  if (pattern.includes('*')) {
    const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
    return re.test(part);
  }
  return part === pattern;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
