/**
 * The tokenizer of search, the same for stored text and for queries. A line is cut into
 * compounds: runs of letters, digits and the joiners that hold identifiers together
 * (`. - / \ : _ @ # + ~ $`), trimmed of joiners at both ends and lowercased. Each compound is a
 * token as a whole (`src/literals.rs:438:9`, `ts2345`, `com.foo.bar`, a commit hash), and so are
 * its parts: segments between path separators and colons (`src`, `literals.rs`, `438`), then
 * words inside a segment, split at `. - _ @ # + ~ $` and at camelCase humps (`literals`, `rs`;
 * `fastInverseSqrt` gives `fast`, `inverse`, `sqrt`). Tokens shorter than 2 characters are
 * dropped; longer than 64 are cut to 64.
 */

/** Longest token kept; longer compounds (base64, minified code) are cut to this. */
export const MAX_TOKEN = 64;
const MIN_TOKEN = 2;

const SEGMENT_SPLIT = /[/\\:@]+/;
const WORD_SPLIT = /[.,\-_@#+~$]+/;
const CAMEL = /([a-z])(?=[A-Z])|([A-Z]+)(?=[A-Z][a-z])/g;
const NON_ASCII_WORD = /[\p{L}\p{N}\p{M}]/u;

/** True for characters that join an identifier: `. - / \ : _ @ # + ~ $`. */
function isJoiner(c: number): boolean {
  return (
    c === 46 ||
    c === 45 ||
    c === 47 ||
    c === 92 ||
    c === 58 ||
    c === 95 ||
    c === 64 ||
    c === 35 ||
    c === 43 ||
    c === 126 ||
    c === 36
  );
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(text: string, i: number, c: number): boolean {
  if (c === 44) return isDigit(text.charCodeAt(i - 1)) && isDigit(text.charCodeAt(i + 1));
  if (c < 128) return isAlnum(c) || isJoiner(c);
  return NON_ASCII_WORD.test(text[i] as string);
}

/**
 * A compound: a run of characters isWordChar accepts (ASCII letters and digits, joiners, a comma
 * between two digits, letters, digits and marks of other scripts), found in one native pass
 * rather than a call per character. In text without surrogates, where a character is one code
 * unit as isWordChar reads them (it takes an astral letter's halves as no word characters).
 */
const COMPOUND = /(?:[A-Za-z0-9./\\:_@#+~$-]|[\p{L}\p{N}\p{M}]|(?<=[0-9]),(?=[0-9]))+/gu;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Calls `emit` with every compound of `text`, as it is written (case kept, joiners trimmed).
 */
export function forEachCompound(text: string, emit: (compound: string) => void): void {
  if (SURROGATE.test(text)) {
    forEachCompoundByChar(text, emit);
    return;
  }
  for (const m of text.matchAll(COMPOUND)) {
    let start = m.index;
    let end = start + m[0].length;
    while (start < end && isJoiner(text.charCodeAt(start))) start++;
    while (end > start && isJoiner(text.charCodeAt(end - 1))) end--;
    if (end - start >= MIN_TOKEN) emit(text.slice(start, end));
  }
}

/** forEachCompound of any text, a character at a time (letters and digits of every script). */
export function forEachCompoundByChar(text: string, emit: (compound: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text, i, text.charCodeAt(i))) {
      i++;
      continue;
    }
    let start = i;
    while (i < n && isWordChar(text, i, text.charCodeAt(i))) i++;
    let end = i;
    while (start < end && isJoiner(text.charCodeAt(start))) start++;
    while (end > start && isJoiner(text.charCodeAt(end - 1))) end--;
    if (end - start >= MIN_TOKEN) emit(text.slice(start, end));
  }
}

function keep(token: string): string | undefined {
  if (token.length < MIN_TOKEN) return undefined;
  return token.length > MAX_TOKEN ? token.slice(0, MAX_TOKEN) : token;
}

/** The words of one segment: split at `. - _ @ # + ~ $` and camelCase humps, lowercased. */
function wordsOf(segment: string): string[] {
  const out: string[] = [];
  for (const piece of segment.split(WORD_SPLIT)) {
    const parts = /[a-z][A-Z]|[A-Z]{2}[a-z]/.test(piece) ? piece.replace(CAMEL, '$1$2 ').split(' ') : [piece];
    for (const p of parts) {
      const w = keep(p.toLowerCase());
      if (w) out.push(w);
    }
  }
  return out;
}

/** The segments of a compound: split at `/`, `\` and `:`, joiners trimmed (case kept). */
function segmentsOf(compound: string): string[] {
  const out: string[] = [];
  for (const s of compound.split(SEGMENT_SPLIT)) {
    const t = s.replace(/^[.\-_@#+~$]+|[.\-_@#+~$]+$/, '');
    if (t.length >= MIN_TOKEN) out.push(t);
  }
  return out;
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;

/** True when a compound has parts: a joiner, or a camelCase hump (`fooBar`, `HTTPServer`). */
function hasJoinerOrHump(compound: string): boolean {
  let prev = 0;
  for (let i = 0; i < compound.length; i++) {
    const c = compound.charCodeAt(i);
    if (isJoiner(c) || c === 44) return true;
    if (isUpper(c) && (isLower(prev) || (isUpper(prev) && isLower(compound.charCodeAt(i + 1))))) return true;
    prev = c;
  }
  return false;
}

const isSegmentSep = (c: number) => c === 47 || c === 92 || c === 58 || c === 64;
const isWordSep = (c: number) =>
  c === 46 || c === 44 || c === 45 || c === 95 || c === 64 || c === 35 || c === 43 || c === 126 || c === 36;

/**
 * Emits the segments of `lower[from, to)` (split at `/ \ :`), and the words of each segment
 * (split at `. , - _ @ # + ~ $` and at the camelCase humps of `orig`), skipping any equal to
 * the whole compound or to their segment. `orig` and `lower` have the same length.
 */
function emitParts(orig: string, lower: string, emit: (token: string) => void): void {
  const n = orig.length;
  let segStart = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n && !isSegmentSep(orig.charCodeAt(i))) continue;
    let s0 = segStart;
    let s1 = i;
    segStart = i + 1;
    while (s0 < s1 && isWordSep(orig.charCodeAt(s0))) s0++;
    while (s1 > s0 && isWordSep(orig.charCodeAt(s1 - 1))) s1--;
    if (s1 - s0 < MIN_TOKEN) continue;
    const whole = s0 === 0 && s1 === n;
    if (!whole) emit(s1 - s0 > MAX_TOKEN ? lower.slice(s0, s0 + MAX_TOKEN) : lower.slice(s0, s1));
    let w0 = s0;
    // The piece between word separators, and whether it has humps (then it is a token whole
    // too: `FindOpenSSL` in `FindOpenSSL.cmake` is `findopenssl`, and `find`, `open`, `ssl`).
    let p0 = s0;
    let humped = false;
    let prev = 0;
    for (let j = s0; j <= s1; j++) {
      const c = j < s1 ? orig.charCodeAt(j) : 44;
      const sep = isWordSep(c);
      const hump =
        !sep &&
        isUpper(c) &&
        (isLower(prev) || (isUpper(prev) && isLower(orig.charCodeAt(j + 1)) && j + 1 < s1));
      if (sep || hump) {
        if (sep && humped && j - p0 >= MIN_TOKEN && (p0 !== s0 || j !== s1))
          emit(j - p0 > MAX_TOKEN ? lower.slice(p0, p0 + MAX_TOKEN) : lower.slice(p0, j));
        if (j - w0 >= MIN_TOKEN && (w0 !== s0 || j !== s1))
          emit(j - w0 > MAX_TOKEN ? lower.slice(w0, w0 + MAX_TOKEN) : lower.slice(w0, j));
        w0 = sep ? j + 1 : j;
        if (sep) p0 = j + 1;
        humped = sep ? false : humped || j > p0;
      }
      prev = c;
    }
  }
}

/**
 * Calls `emit` with every token of one line: each compound whole, then its segments, then
 * their words, each lowercased (a compound that is one word is emitted once); and `onCompound`, if
 * given, with each compound lowercased and uncut. `within`, if given, skips the tokens of a
 * compound whose lowercase holds none of those strings (a caller looking for them: every token
 * of such a compound is a part of it, so none can hold them either); onCompound still sees it.
 */
export function tokenizeLine(
  text: string,
  emit: (token: string) => void,
  onCompound?: (lower: string) => void,
  within?: readonly string[],
): void {
  forEachCompound(text, (compound) => {
    const lower = compound.toLowerCase();
    onCompound?.(lower);
    // Only where the tokens are slices of `lower` (below; not where lowercasing changed the length).
    if (within && lower.length === compound.length && !within.some((x) => lower.includes(x))) return;
    emit(lower.length > MAX_TOKEN ? lower.slice(0, MAX_TOKEN) : lower);
    if (!hasJoinerOrHump(compound)) return;
    if (lower.length === compound.length) {
      emitParts(compound, lower, emit);
      return;
    }
    // Lowercasing changed the length (rare letters such as U+0130): take parts one by one.
    const whole = keep(lower);
    for (const segment of segmentsOf(compound)) {
      const s = keep(segment.toLowerCase());
      if (s && s !== whole) emit(s);
      for (const w of wordsOf(segment)) if (w !== s && w !== whole) emit(w);
    }
  });
}

/** All tokens of a text, in order (for tests and for small texts such as notes). */
export function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) tokenizeLine(line, (t) => out.push(t));
  return out;
}

/**
 * One word of a query and the forms it may be found under: the compound whole first, then, if
 * the whole is nowhere, its segments, then their words (each a part that must be found).
 */
export interface QueryTerm {
  /** The token as the index spells it (lowercase). */
  token: string;
  /** The word as typed, when its case is mixed (`TypeError`): one more form to scan for. */
  typed?: string;
  /** The parts to fall back on when the whole token is found nowhere; empty for a plain word. */
  parts: QueryTerm[];
}

/** The terms of a query: one per compound, duplicates removed, in query order. */
export function queryTerms(query: string): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  forEachCompound(query, (compound) => {
    const token = keep(compound.toLowerCase()) as string;
    if (seen.has(token)) return;
    seen.add(token);
    terms.push(termOf(compound));
  });
  return terms;
}

function termOf(compound: string): QueryTerm {
  const token = keep(compound.toLowerCase()) as string;
  // (Lower, upper and capitalised are forms already: see scan.ts formsOf.)
  const capitalised = token.charAt(0).toUpperCase() + token.slice(1);
  const mixed = compound.length <= 64 && ![token, compound.toUpperCase(), capitalised].includes(compound);
  const typed = mixed ? { typed: compound } : {};
  if (!hasJoinerOrHump(compound)) return { token, ...typed, parts: [] };
  const segments = segmentsOf(compound);
  if (segments.length > 1) return { token, ...typed, parts: segments.map(termOf) };
  const words = wordsOf(segments[0] ?? compound).filter((w) => w !== token);
  return { token, ...typed, parts: words.map((w) => ({ token: w, parts: [] })) };
}
