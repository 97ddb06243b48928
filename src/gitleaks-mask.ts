/**
 * Masking with gitleaks' rules (src/gitleaks-rules.ts, generated from gitleaks' own rule set by
 * scripts/gitleaks-rules.py): each secret becomes `[redacted:<gitleaks rule id>]`.
 *
 * Cost: a line without a run of 16 token characters ([A-Za-z0-9_-]) is left after one cheap
 * regex test (nearly every gitleaks secret holds such a run; the few shorter ones are missed);
 * then one test against all the rules' keywords (one regex, made on first use, about ten times
 * slower than the run test); only the rules whose keyword is in the line run, each compiled on
 * first use. A line longer
 * than MAX_LINE is tested on its first MAX_LINE characters only, so that a rule's bounded
 * look-back cannot make a huge line slow.
 */
import { GITLEAKS_RULES, type GitleaksRule } from './gitleaks-rules.js';

/** The longest line the rules run on whole (longer ones: their start). */
const MAX_LINE = 64 * 1024;

interface Compiled {
  rule: GitleaksRule;
  re: RegExp;
}

const MASKS = /\[redacted:[\w-]+\]/g;
let keywordRe: RegExp | undefined;
const compiled = new Map<string, Compiled | null>();

function keywords(): RegExp {
  if (keywordRe) return keywordRe;
  const all = new Set(GITLEAKS_RULES.flatMap((r) => r.keywords));
  // Longest first, so that the alternation is a plain list of literals.
  const escaped = [...all]
    .sort((a, b) => b.length - a.length)
    .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  keywordRe = new RegExp(escaped.join('|'), 'i');
  return keywordRe;
}

function compile(rule: GitleaksRule): Compiled | null {
  let c = compiled.get(rule.id);
  if (c === undefined) {
    try {
      c = { rule, re: new RegExp(rule.re, 'gd') };
    } catch {
      c = null;
    }
    compiled.set(rule.id, c);
  }
  return c;
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The span of the secret in a match: the rule's group, else the first group that matched, else all. */
function secretSpan(rule: GitleaksRule, m: RegExpExecArray): [number, number] | undefined {
  const indices = m.indices;
  if (!indices) return undefined;
  if (rule.group !== undefined) return indices[rule.group] ?? undefined;
  for (let g = 1; g < indices.length; g++) {
    const span = indices[g];
    if (span && span[1] > span[0]) return span;
  }
  return indices[0];
}

// What every secret worth a rule holds: a run of token characters.
const TOKEN_RUN = /[A-Za-z0-9_-]{16}/;

/** True when the line may hold a secret of some gitleaks rule (false for sure otherwise). */
export function mightHoldGitleaksSecret(line: string): boolean {
  const head = line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
  return TOKEN_RUN.test(head) && keywords().test(head);
}

/**
 * Masks what gitleaks' rules find in one line. `keep(secret)`: false leaves a candidate (a
 * placeholder, an already masked span). `found(id)` is told of each secret masked.
 */
export function maskGitleaks(
  line: string,
  keep: (secret: string) => boolean,
  found: (id: string) => void,
  mask: (id: string) => string,
): string {
  const head = line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
  if (!TOKEN_RUN.test(head)) return line;
  // A mask's own words (`[redacted:api-key]`) are no keyword.
  const unmasked = head.includes('[redacted:') ? head.replace(MASKS, ' ') : head;
  if (!keywords().test(unmasked)) return line;
  const lower = unmasked.toLowerCase();
  const spans: [number, number, string][] = [];
  for (const rule of GITLEAKS_RULES) {
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    const c = compile(rule);
    if (!c) continue;
    c.re.lastIndex = 0;
    for (const m of head.matchAll(c.re)) {
      const span = secretSpan(rule, m);
      if (!span || span[1] <= span[0]) continue;
      const secret = head.slice(span[0], span[1]);
      if (rule.entropy !== undefined && entropy(secret) < rule.entropy) continue;
      if (!keep(secret)) continue;
      spans.push([span[0], span[1], rule.id]);
    }
  }
  if (spans.length === 0) return line;
  // In order, the first of overlapping spans kept; the line built once.
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to, id] of spans) {
    if (from < at) continue;
    found(id);
    parts.push(line.slice(at, from), mask(id));
    at = to;
  }
  parts.push(line.slice(at));
  return parts.join('');
}
