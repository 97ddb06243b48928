/**
 * Messages of findings. A finding (a line that opens with its place, `docs/a.rst:58: …`,
 * `  src/m.py:12:5 - error: …`, or with a severity's label, `ERROR: Unable to parse …`,
 * `warning: unused variable: …`) says what is wrong in words, with the names it is about quoted:
 * `(ERROR/3) Unknown interpreted text role "doc".` six hundred times over a dozen roles, and once
 * `(ERROR/3) Unknown target name: "configuration".`. The quoted names split such lines into many
 * templates, and a template mined over them may join lines that differ in their words (`Unknown
 * target name` and `Unknown directive type` agree at half their words): the message's own words,
 * the first few with names, numbers and paths masked, are its kind. Among many findings of few
 * kinds, a finding whose kind is seen once or twice is news, as a rare rule code is (see
 * codes.ts), and a template of its own.
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */
import { rarityWorth } from './codes.js';
import { template } from './salience.js';

/** A finding's place at the start of its line: a file, a line number, maybe a column. */
const PLACE = /^\s*[\w./\\@+-]*\.[A-Za-z]\w{0,5}:\d+(?::\d+)?:?\s+(?:-\s+)?/;
/** Words of the message read for its kind. */
const WORDS = 4;
/** Findings needed, and kinds among them, before a kind's rarity says anything. */
const MIN_FINDINGS = 20;
const MIN_KINDS = 3;
/** At most this share of the findings may be distinct kinds: more, and the words hold names. */
const MAX_SHARE = 1 / 4;

/** A severity's label at the start of a line, in place of a place (`ERROR: Unable to parse …`). */
const LABEL = /^\s*(?:error|warning|warn|fatal)(?:\[[\w-]+\])?:\s+/i;

/** The masked place at the start of a line's template (`P:#:#: `, `P:# - `). */
const MASKED_PLACE = /^P(?::#){1,2}:?\s+(?:-\s+)?/;

/**
 * The kind of a finding's message (its first words, masked), or '' for a line that is none. It
 * reads the line's template (see salience.ts), remembered for the miner: no new string is masked.
 */
function kindOf(text: string): string {
  const opener = PLACE.test(text) ? MASKED_PLACE : LABEL.test(text) ? LABEL : undefined;
  if (opener === undefined) return '';
  const masked = template(text);
  const place = opener.exec(masked);
  if (place === null) return '';
  const words = masked.slice(place[0].length).split(' ', WORDS).join(' ');
  // A message of letters: a place followed by a number or a mark alone is no finding.
  return /[A-Za-z]{3}/.test(words) ? words : '';
}

/** A rare message's worth and a tag for it (see kinds.ts). */
export interface MessageRarity {
  worth(text: string): number;
  tag(text: string): string;
}

const NONE: MessageRarity = { worth: () => 0, tag: () => '' };

/**
 * The worth of each finding's kind of message being rare, learnt from the lines the summary
 * chooses from (each with how many lines it stands for).
 */
export function messageRarity(lines: Iterable<{ text: string; count: number }>): MessageRarity {
  const counts = new Map<string, number>();
  // Each line's kind, read once (the lines are asked for again by worth and tag).
  const kinds = new Map<string, string>();
  let findings = 0;
  for (const { text, count } of lines) {
    let kind = kinds.get(text);
    if (kind === undefined) {
      kind = kindOf(text);
      kinds.set(text, kind);
    }
    if (kind === '') continue;
    counts.set(kind, (counts.get(kind) ?? 0) + count);
    findings += count;
  }
  if (findings < MIN_FINDINGS || counts.size < MIN_KINDS || counts.size > findings * MAX_SHARE) return NONE;
  const kindOfLine = (text: string) => kinds.get(text) ?? kindOf(text);
  const worth = (text: string) => {
    const kind = kindOfLine(text);
    return kind === '' ? 0 : rarityWorth(counts.get(kind) ?? 1);
  };
  return { worth, tag: (text) => (worth(text) > 0 ? `\u0002${kindOfLine(text)}` : '') };
}
