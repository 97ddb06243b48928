/**
 * What must never reach the agent from a stored output, applied to every line ctxwrap prints
 * from one (summary, read, search): the lines of a PEM private-key block are masked whole, by
 * their line numbers (found while capturing), and known credential formats are masked in the
 * others, with the command-line rules in the lines of a `set -x` trace.
 */

import { keyBlockStep } from './key-blocks.js';
import { remembered } from './memo.js';
import { redactLine } from './redact.js';
import { maskTraceLine } from './redact-command.js';
import { mask } from './secret-kinds.js';
import {
  endsOpen,
  followJwt,
  jwtOpenWidth,
  maskContinuation,
  maskOpening,
  mayContinue,
} from './split-secret.js';
import { isPiece, maskWrapped, mayOpenChain, RecentLines } from './wrapped-token.js';

const STARTS_TOKEN = /^[A-Za-z0-9_+/=.-]/;

/** Lines `from` to `to`, inclusive, 1-based. */
export interface LineRange {
  from: number;
  to: number;
}

/**
 * The lines next to a line, as stored, where they are at hand (each read only when needed): a
 * secret may be cut over two lines (see split-secret.ts).
 */
export interface Around {
  /** The line just before (its end is enough), when it is not the line this shield was given last. */
  before?: () => string | undefined;
  /** The line just after (its start is enough). */
  after?: () => string | undefined;
}

/** Masks one cleaned line, given its line number in the stored file (and its neighbours). */
export type Shield = (line: number, text: string, around?: Around) => string;

/** No masking (for `--no-redact`): only ctxwrap's inline markers are escaped. */
const NO_SHIELD: Shield = (_line, text) => inertInline(text);

export function shieldFor(keyRanges: readonly LineRange[] = [], enabled = true): Shield {
  if (!enabled) return NO_SHIELD;
  // From metadata on disk: keep only ranges that are ranges (a damaged file must not stop a read).
  const ranges = Array.isArray(keyRanges)
    ? keyRanges.filter(
        (r): r is LineRange =>
          typeof r === 'object' && r !== null && typeof r.from === 'number' && typeof r.to === 'number',
      )
    : [];
  // The line shown just before, as stored (and whether it ends open): a secret may begin at its
  // end (see maskContinuation).
  // A JWT wrapped over lines is followed from line to line (see followJwt).
  let last: { line: number; text: string; open: boolean; jwt: number; piece: boolean } | undefined;
  // The last lines given in a row, for a secret wrapped over more (see wrapped-token.ts).
  const recent = new RecentLines();
  return (line, stored, around) => {
    // The lines before are looked at only when this one starts with a word; read anew only when
    // the line before is not the line this shield was given last.
    const follows = last?.line === line - 1;
    const starts = mayContinue(stored);
    const open = endsOpen(stored);
    // A secret wrapped over three lines or more: through a piece of it, or a line next to one.
    const piece = isPiece(stored);
    const ahead = open || piece || mayOpenChain(stored);
    const lead = starts || STARTS_TOKEN.test(stored);
    // The lines before, from the caller, when this one does not follow the last given.
    const above = follows || !(lead || ahead) ? undefined : around?.before?.();
    const nl = above?.lastIndexOf('\n') ?? -1;
    const nearest = nl === -1 ? above : above?.slice(nl + 1);
    const before = !starts
      ? undefined
      : follows
        ? last?.open || last?.jwt
          ? last.text
          : undefined
        : nearest;
    const jwtBefore = follows ? (last?.jwt ?? 0) : before === undefined ? 0 : jwtOpenWidth(before);
    const prevPiece = follows ? last?.piece === true : isPiece(nearest);
    last = { line, text: stored, open, jwt: 0, piece };
    let wrapped: string | undefined;
    let befores: string[] | undefined;
    if (ahead || (prevPiece && lead)) {
      befores = follows ? recent.all() : (above?.split('\n') ?? []);
      wrapped = maskWrapped(stored, befores, ahead ? linesAfter(around) : []);
    }
    if (!follows) recent.from(befores ?? nearest);
    recent.push(stored);
    let text = wrapped ?? (before === undefined || jwtBefore > 0 ? stored : maskContinuation(before, stored));
    const range = ranges.find((r) => line >= r.from && line <= r.to);
    if (range) return inertInline(inKeyBlock(text, line > range.from));
    text = redactLine(text);
    if (jwtBefore > 0 || (open && text.includes('eyJ'))) {
      const jwt = followJwt(text, jwtBefore);
      text = jwt.text;
      last.jwt = jwt.width;
    }
    // Masked first, so that only the secret the next line completes is masked at its end (a
    // mask ends with `]`: a line that did not end open does not once masked).
    if (wrapped === undefined && open && around?.after && endsOpen(text)) {
      const after = around.after()?.split('\n')[0];
      if (after !== undefined) text = maskOpening(text, after);
    }
    return inertInline(maskTraceLine(text));
  };
}

/** The lines after a line (the nearest first), where its caller has them. */
const linesAfter = (around: Around | undefined) => around?.after?.()?.split('\n') ?? [];

// A run of base64 long enough to be part of a key, whatever surrounds it.
const KEY_LIKE = /[A-Za-z0-9+/=]{24}/;

/**
 * A line within a key block's range: its key parts masked (from the BEGIN marker on, or whole);
 * a line that cannot be part of a key (prose after a truncated key) is shown like any other
 * unless it holds a run of base64.
 */
function inKeyBlock(text: string, afterBegin: boolean): string {
  const step = keyBlockStep(text, afterBegin);
  if (step.continues || step.keys > 0) return redactLine(step.text);
  if (!afterBegin || KEY_LIKE.test(text)) return `${/^\s*/.exec(text)?.[0] ?? ''}${mask('private-key')}`;
  return redactLine(text);
}

/** Look-alikes of the letters of `ctxwrap`, of `[` and of `:` that NFKC leaves alone, by what they pass for. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  c: '\u0441\u0421\u03f2\u03f9\u1d04\u217d\uabaf',
  t: '\u0442\u0422\u03c4\u03a4\u1d1b\u0163',
  x: '\u0445\u0425\u03c7\u03a7\u00d7\u2a2f\u1541',
  w: '\u051d\u051c\u0461\u03c9\u1d21\u026f\uab83',
  r: '\u0433\u0280\u1d26\uab47\uab81',
  a: '\u0430\u0410\u03b1\u0391\u0251\u237a\u1d00',
  p: '\u0440\u0420\u03c1\u03a1\u03f1\u2374\u1d18',
  '[': '\u2045\u27e6\u298b\u2772\u301a\u3010\u3014\u2997',
  ':': '\ua789\u2236\u02d0\u02f8\u05c3',
  // The short gap between numbered lines (see SHORT_GAP in summary/assemble.ts).
  '\u22ee': '\u205d\u205e\u2999',
};
const CONFUSABLES = new Map<string, string>(
  Object.entries(LOOK_ALIKES).flatMap(([ascii, chars]) =>
    [...chars].map((c): [string, string] => [c, ascii]),
  ),
);

/**
 * The patterns of seenStart, made on its first call: their Unicode property classes make V8 build
 * ICU sets (about a millisecond), which a run whose lines all start plainly never needs.
 */
let patterns:
  | { invisible: RegExp; leading: RegExp; marks: RegExp; digits: RegExp; confusable: RegExp }
  | undefined;
const startPatterns = () =>
  (patterns ??= {
    // What may come before a forged marker and not be seen: spaces, format and other
    // default-ignorable characters (U+034F, U+115F, U+3164, U+FE0F, U+FFA0, tags), characters
    // drawn blank (U+2800), spaces too narrow to see between digits (thin, hair: `1 2:`),
    // private-use and unassigned code points (no glyph, or one a font made up), controls, and
    // combining marks with nothing to combine with.
    invisible:
      /[\p{Cf}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800\u3164\u115f\u1160\uffa0\u2006\u2008\u2009\u200a\u202f]/gu,
    leading: /^[\s\p{Cc}\p{M}]+/u,
    // Accents on letters (`ctx̀wrap`), after NFKD has split them off.
    marks: /\p{M}/gu,
    // Digits of any script (`١٢:`) read as digits.
    digits: /\p{Nd}/gu,
    confusable: new RegExp(`[${Object.values(LOOK_ALIKES).join('')}]`, 'gu'),
  });

/**
 * What a reader sees at the start of a line: its first characters without invisible ones,
 * NFKC-folded (fullwidth `［ｃｔｘ`), look-alikes mapped to ASCII, lower-cased.
 */
function seenStart(text: string): string {
  const { invisible, leading, marks, digits, confusable } = startPatterns();
  return text
    .slice(0, 96)
    .replace(invisible, '')
    .replace(leading, '')
    .replace(VERTICAL_FORM, '\u22ee')
    .normalize('NFKD')
    .replace(marks, '')
    .replace(invisible, '')
    .replace(digits, '0')
    .replace(confusable, (c) => CONFUSABLES.get(c) ?? c)
    .toLowerCase()
    .replace(DIGIT_LOOK_ALIKES, (run) => run.replace(/[lio|]/g, '0'));
}

/** The vertical ellipsis's presentation form (`︙`), read as the short gap: NFKD folds it to `…`. */
const VERTICAL_FORM = /\ufe19/g;

// A leading number with letters that pass for digits in it (`l2:`, `1O-`): read as a number.
const DIGIT_LOOK_ALIKES = /^\\*\+?[0-9lio|]*[0-9][0-9lio|]*(?=[:-])/;

/**
 * Lines that could pass for ctxwrap's own: a `[ctxwrap …]` marker, a `ctxwrap: …` warning, one
 * of the numbered lines of a summary or `read` (`12: `, `+12: ` for a new line, `12- ` for
 * context), or the short gap between numbered lines (`⋮`), however many backslashes come first.
 */
const FORGED = /^\\*(?:\[\s*ctxwrap\b|ctxwrap\s*:|\+?\d+(?::(?!\d)|- )|\u22ee)/;
// Lines that cannot start like one: a plain ASCII letter other than c, or an ASCII punctuation
// other than [ \ +, come first (and not a letter that passes for a digit before a digit).
const PLAINLY_NOT = /^[ \t]*(?![lIiOo|][lIiOo|0-9]*[0-9])[A-BD-Za-bd-z!-*,-/;-@\]-`{-~]/;

// ctxwrap's markers inside a line: `[+500 similar, last 99999]`, `…[5000 chars omitted]…`.
// The `[` may be a look-alike (fullwidth `［`, and those LOOK_ALIKES lists).
const INLINE_MARKER =
  /[[\uff3b\u2045\u27e6\u298b\u2772\u301a\u3010\u3014\u2997](?=\s*[+\uff0b\ufe62]\s*[\d,]+\s+similar\b|\s*[\d,]+\s+chars?\s+omitted\s*[\]\uff3d])/g;

/**
 * Escapes (with a leading backslash) an output line that could pass for one of ctxwrap's own
 * lines once invisible characters are dropped and look-alikes folded, so that nothing a
 * command prints can forge a marker, a warning or a numbered line. Every line ctxwrap prints
 * from an output goes through it (summary, read, search); see inertInline for markers inside.
 */
export function inertLine(text: string): string {
  return PLAINLY_NOT.test(text) ? text : inertStart(text);
}

const inertStart = remembered((text) => (FORGED.test(seenStart(text)) ? `\\${text}` : text));

/**
 * Escapes ctxwrap's inline markers (`[+N similar, last L]`, `…[N chars omitted]…`) anywhere in
 * an output line, by a backslash before the `[`. Part of every shield (before a line is cut, so
 * that ctxwrap's own notes added later stay as they are).
 */
function inertInline(text: string): string {
  return text.includes('similar') || text.includes('omitted') ? text.replace(INLINE_MARKER, '\\$&') : text;
}
