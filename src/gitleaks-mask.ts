/**
 * Masking with gitleaks' rules (src/gitleaks-rules.ts, generated from gitleaks' own rule set by
 * scripts/gitleaks-rules.py): each secret becomes `[redacted:<gitleaks rule id>]`.
 *
 * Cost: a line without a run of 16 token characters ([A-Za-z0-9_-]) is left after one cheap
 * regex test (nearly every gitleaks secret holds such a run; the few shorter ones are missed);
 * then the lower-cased line is searched for the rules' keywords (one regex, made on first use);
 * only the rules whose keyword is in the line run, each compiled on first use. A line longer
 * than MAX_LINE is looked at on its first MAX_LINE characters only, so that a rule's bounded
 * look-back cannot make a huge line slow.
 */
import { GITLEAKS_RULES, type GitleaksRule } from './gitleaks-rules.js';

/** The longest line the rules run on whole (longer ones: their start). */
const MAX_LINE = 64 * 1024;

// What every secret worth a rule holds: a run of token characters. (Anchored at the run's
// start, so that a run's first character is tried once rather than each of its characters.)
const TOKEN_RUN = /(?:^|[^A-Za-z0-9_-])[A-Za-z0-9_-]{16}/;

const MASKS = /\[redacted:[\w-]+\]/g;

interface Keywords {
  /** Any keyword, in a lower-cased line (faster than one case-insensitive regex). */
  any: RegExp;
  /** The keywords by their first character, longest first. */
  byFirst: Map<string, string[]>;
  /** The rules of each keyword. */
  rules: Map<string, GitleaksRule[]>;
}
let index: Keywords | undefined;
const compiled = new Map<string, RegExp | null>();

function keywords(): Keywords {
  if (index) return index;
  const rules = new Map<string, GitleaksRule[]>();
  for (const rule of GITLEAKS_RULES)
    for (const k of rule.keywords) rules.set(k, [...(rules.get(k) ?? []), rule]);
  const all = [...rules.keys()].sort((a, b) => b.length - a.length);
  const byFirst = new Map<string, string[]>();
  for (const k of all) byFirst.set(k.charAt(0), [...(byFirst.get(k.charAt(0)) ?? []), k]);
  const escaped = all.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  index = { any: new RegExp(escaped.join('|'), 'g'), byFirst, rules };
  return index;
}

/** The rules one of whose keywords is in `lower` (a lower-cased line), in the rule set's order. */
function rulesIn(lower: string): GitleaksRule[] {
  const { any, byFirst, rules } = keywords();
  const found = new Set<GitleaksRule>();
  any.lastIndex = 0;
  for (let m = any.exec(lower); m; m = any.exec(lower)) {
    // Every keyword starting here, not only the longest.
    for (const k of byFirst.get(lower.charAt(m.index)) ?? [])
      if (lower.startsWith(k, m.index)) for (const r of rules.get(k) ?? []) found.add(r);
    any.lastIndex = m.index + 1;
  }
  return found.size === 0 ? [] : GITLEAKS_RULES.filter((r) => found.has(r));
}

function compile(rule: GitleaksRule): RegExp | null {
  let re = compiled.get(rule.id);
  if (re === undefined) {
    try {
      re = new RegExp(rule.re, 'gd');
    } catch {
      re = null;
    }
    compiled.set(rule.id, re);
  }
  return re;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
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

/**
 * True when a candidate touches a mask (`…[redacted:x]` before it, `[redacted:x]…` after): it
 * was glued to a token masked before, so a second pass must not find it where the first did not
 * (masking stays idempotent, as in redact.ts).
 */
function touchesMask(line: string, from: number, to: number): boolean {
  return (
    line.startsWith('[redacted:', to) ||
    (line.charAt(from - 1) === ']' && /\[redacted:[\w-]+\]$/.test(line.slice(Math.max(0, from - 64), from)))
  );
}

const headOf = (line: string): string => (line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line);

/** True when the line may hold a secret of some gitleaks rule (false for sure otherwise). */
export function mightHoldGitleaksSecret(line: string): boolean {
  const head = headOf(line);
  if (!TOKEN_RUN.test(head)) return false;
  const { any } = keywords();
  any.lastIndex = 0;
  return any.test(head.toLowerCase());
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
  const head = headOf(line);
  if (!TOKEN_RUN.test(head)) return line;
  // A mask's own words (`[redacted:api-key]`) are no keyword.
  const unmasked = head.includes('[redacted:') ? head.replace(MASKS, ' ') : head;
  const spans: [number, number, string][] = [];
  for (const rule of rulesIn(unmasked.toLowerCase())) {
    const re = compile(rule);
    if (!re) continue;
    re.lastIndex = 0;
    for (const m of head.matchAll(re)) {
      const span = secretSpan(rule, m);
      if (!span || span[1] <= span[0]) continue;
      const secret = head.slice(span[0], span[1]);
      if (rule.entropy !== undefined && entropy(secret) < rule.entropy) continue;
      if (!keep(secret) || touchesMask(head, span[0], span[1])) continue;
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
