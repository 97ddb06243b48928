/**
 * Masking of well-known credential formats in what ctxwrap prints (never in the stored file):
 * each secret becomes `[redacted:<kind>]`. Precision comes before recall: a token is masked
 * only when its shape is specific (a provider prefix, a PEM header, a named header or field),
 * and generic `password=`-style assignments only when the value looks random.
 *
 * Cost: one prefilter check per line (`mightHoldSecret`: two regex tests); lines without a hint
 * of a secret (nearly all) come back untouched without any other regex running. Every pattern
 * starts at a literal or at a token boundary and has bounded or unambiguous repetition, so time
 * stays linear in the length of the line.
 *
 * Use: `new Redactor()` per stream of lines, `.line(l)` for each line printed, `.skip(l)` for
 * lines passed over (to follow private-key blocks); `redact(text)` for a whole text.
 */

/** The kinds of secret, as they appear in `[redacted:<kind>]`. */
export const SECRET_KINDS = [
  'private-key',
  'aws-access-key-id',
  'aws-secret-key',
  'aws-session-token',
  'gcp-api-key',
  'gcp-oauth',
  'azure-key',
  'azure-sas',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  'npm-token',
  'jwt',
  'bearer-token',
  'basic-auth',
  'url-password',
  'password',
  'secret',
  'token',
  'api-key',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/** The text that replaces a secret of the given kind. */
export function mask(kind: SecretKind): string {
  return `[redacted:${kind}]`;
}

interface Rule {
  kind: SecretKind;
  /** Cheap test of the line before `re` runs; all hints together make the prefilter. */
  hint: RegExp;
  /** Global; group 1 is kept as is, group 2 is the secret. */
  re: RegExp;
  /** Last word on a candidate (without a trailing full stop): false leaves it. `offset`: where the match starts. */
  accept?: (secret: string, line: string, offset: number) => boolean;
}

// Tokens are matched whole: not preceded or followed by a character that could continue them.
// A mask's brackets count as such characters too (`]` before, `[` after), so that masking one
// token never turns its neighbour into a whole token on a second pass (redact is idempotent).

// Separator of a `key = value` assignment in code, config, env files, JSON, YAML and logs.
const ASSIGN = String.raw`["']?\s{0,16}(?::=|=>|[:=])\s{0,16}["']?`;

// What comes before "token" in names that hold no credential: pagination, counts, tokenizers.
const NOT_SECRET_TOKEN =
  /(?:page|next|prev|continuation|sync|cursor|resume|max|min|num|total|count|input|output|prompt|completion|eos|bos|pad|unk|sep|cls|mask|start|end|stop|special)[_.-]?$/i;

const RULES: readonly Rule[] = [
  {
    kind: 'aws-access-key-id',
    hint: /AKIA|ASIA/,
    re: /(?<![\]A-Za-z0-9])()((?:AKIA|ASIA)[A-Z0-9]{16})(?![[A-Za-z0-9])/g,
  },
  {
    kind: 'aws-secret-key',
    hint: /secret/i,
    re: new RegExp(
      String.raw`((?:secret_?access_?key|aws_?secret_?key)(?:${ASSIGN}|\s{1,8}))([A-Za-z0-9/+]{40})(?![[A-Za-z0-9/+=])`,
      'gi',
    ),
  },
  {
    kind: 'aws-session-token',
    hint: /token/i,
    re: new RegExp(
      String.raw`((?:aws_?)?session_?token(?:${ASSIGN}|\s{1,8}))([A-Za-z0-9/+=]{100,8192})`,
      'gi',
    ),
  },
  {
    kind: 'gcp-api-key',
    hint: /AIza/,
    re: /(?<![\]A-Za-z0-9_-])()(AIza[0-9A-Za-z_-]{35})(?![[A-Za-z0-9_-])/g,
  },
  {
    kind: 'gcp-oauth',
    hint: /GOCSPX-|ya29\./,
    re: /(?<![\]A-Za-z0-9_.-])()(GOCSPX-[A-Za-z0-9_-]{28}|ya29\.[0-9A-Za-z_-]{30,2048})(?![[A-Za-z0-9_-])/g,
    accept: isMixed,
  },
  {
    kind: 'azure-key',
    hint: /AccountKey=|SharedAccessKey=/,
    re: /((?:AccountKey|SharedAccessKey)=)([A-Za-z0-9+/]{20,256}={0,2})/g,
  },
  {
    kind: 'azure-sas',
    hint: /[?&]sig=/,
    re: /([?&]sig=)([A-Za-z0-9%+/=]{30,256})/g,
    accept: (s) => /[0-9%]/.test(s),
  },
  {
    kind: 'github-token',
    hint: /gh[pousr]_|github_pat_/,
    re: /(?<![\]A-Za-z0-9_])()(gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{40,251})(?![[A-Za-z0-9_])/g,
  },
  {
    kind: 'gitlab-token',
    hint: /gl(?:pat|dt|rt|ptt|ft|imt|oas|agent|soat|cbt)-|GR1348941/,
    re: /(?<![\]A-Za-z0-9_-])()(gl(?:pat|dt|rt|ptt|ft|imt|oas|agent|soat|cbt)-[A-Za-z0-9_.-]{20,255}|GR1348941[A-Za-z0-9_-]{20,64})(?![[A-Za-z0-9_-])/g,
    accept: (s) => /\d/.test(s),
  },
  {
    kind: 'slack-webhook',
    hint: /hooks\.slack\.com\//i,
    re: /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_-][A-Za-z0-9_/-]{7,511})/gi,
  },
  {
    kind: 'slack-token',
    hint: /xox[abposre]|xapp-/,
    re: /(?<![\]A-Za-z0-9_-])()(xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,250}|xapp-\d-[A-Za-z0-9-]{10,250})(?![[A-Za-z0-9_-])/g,
    accept: (s) => /\d/.test(s.slice(5)),
  },
  {
    kind: 'anthropic-key',
    hint: /sk-/,
    re: /(?<![\]A-Za-z0-9_-])()(sk-ant-[A-Za-z0-9_-]{20,400})(?![[A-Za-z0-9_-])/g,
    accept: (s) => /\d/.test(s),
  },
  {
    kind: 'openai-key',
    hint: /sk-/,
    re: /(?<![\]A-Za-z0-9_-])()(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,400}|sk-[A-Za-z0-9]{20,400})(?![[A-Za-z0-9_-])/g,
    accept: isRandom,
  },
  {
    kind: 'stripe-key',
    hint: /[sr]k_(?:live|test)_|whsec_/,
    re: /(?<![\]A-Za-z0-9_])()((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}|whsec_[A-Za-z0-9]{24,247})(?![[A-Za-z0-9_])/g,
    accept: isMixed,
  },
  {
    kind: 'npm-token',
    hint: /npm_/,
    re: /(?<![\]A-Za-z0-9_])()(npm_[A-Za-z0-9]{36})(?![[A-Za-z0-9_])/g,
    accept: isMixed,
  },
  {
    kind: 'npm-token',
    hint: /:_auth/,
    re: /(:_(?:authToken|auth|password)\s{0,4}=\s{0,4}["']?)([^\s"']{8,4096})/g,
    accept: isOpaque,
  },
  {
    kind: 'jwt',
    hint: /eyJ/,
    re: /(?<![\]A-Za-z0-9_-])()(eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{0,4096})(?![[A-Za-z0-9_-])/g,
    accept: isJwt,
  },
  {
    kind: 'basic-auth',
    hint: /authorization/i,
    re: /(authorization["']?\s{0,8}[:=]\s{0,8}["']?basic\s{1,8})([A-Za-z0-9+/=]{8,4096})/gi,
    accept: isOpaque,
  },
  {
    kind: 'bearer-token',
    hint: /authorization/i,
    re: /(authorization["']?\s{0,8}[:=]\s{0,8}["']?(?:bearer|token|bot)\s{1,8})([A-Za-z0-9._~+/=-]{8,8192})/gi,
    accept: isOpaque,
  },
  {
    kind: 'bearer-token',
    hint: /[Bb]earer/,
    re: /(?<![\]A-Za-z0-9_-])([Bb]earer\s{1,8})([A-Za-z0-9._~+/-]{16,8192}=*)(?![[A-Za-z0-9._~+/=-])/g,
    accept: isRandom,
  },
  {
    kind: 'url-password',
    hint: /:\/\/[^\s/?#@]{0,256}:[^\s/?#@]{1,256}@/,
    re: /(:\/\/[^\s:/?#@]{0,256}:)([^\s/?#@]{1,256})(?=@)/g,
    accept: (s) => !isPlaceholder(s) && !/^\d{1,5}$/.test(s),
  },
  genericRule('password', 'passw(?:or)?d|passphrase', 8),
  genericRule('secret', 'secret(?:[_-]?key)?', 16),
  genericRule('api-key', 'api[_-]?key|access[_-]?key', 16),
  genericRule('token', 'token', 16, NOT_SECRET_TOKEN),
];

/**
 * `<key> = <value>` where the key ends with a word like `password` (not followed by more of the
 * name: `token_count` is not a token), the value looks random, and what precedes the keyword
 * is not in `notAfter`.
 */
function genericRule(kind: SecretKind, keyword: string, minLength: number, notAfter?: RegExp): Rule {
  return {
    kind,
    hint: new RegExp(keyword, 'i'),
    re: new RegExp(String.raw`((?:${keyword})${ASSIGN})([^\s"'\`,;&\\]{${minLength},4096})`, 'gi'),
    accept: (value, line, offset) =>
      !(notAfter?.test(nameBefore(line, offset)) ?? false) && isRandomValue(value),
  };
}

/** The part of an identifier just before `offset` (at most 40 characters back). */
function nameBefore(line: string, offset: number): string {
  let i = offset;
  while (i > 0 && offset - i < 40 && /[A-Za-z0-9_.-]/.test(line[i - 1] as string)) i--;
  return line.slice(i, offset);
}

/** One alternation of the distinct hints, case-sensitive or not as each hint is. */
function joinHints(ignoreCase: boolean): RegExp {
  const sources = new Set(RULES.filter((r) => r.hint.ignoreCase === ignoreCase).map((r) => r.hint.source));
  return new RegExp([...sources].join('|'), ignoreCase ? 'i' : '');
}

// Two alternations, one case-sensitive, test faster than a single case-insensitive one
// (about 235 against 120 MB/s of log lines when measured).
const HINTS = joinHints(false);
const WORD_HINTS = joinHints(true);

/**
 * The prefilter: false when no rule could match the text (true says nothing for sure).
 * Private-key blocks are found separately (by their `-----BEGIN ` line).
 */
export function mightHoldSecret(text: string): boolean {
  return WORD_HINTS.test(text) || HINTS.test(text);
}

const BEGIN_KEY = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END_KEY = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// What may follow a BEGIN line's marker when a key follows: nothing, or the start of the base64
// (with `\n` escapes when the key is a JSON or code string), and a closing quote. Anything else,
// such as prose, makes it a mention of the marker rather than a key.
const KEY_START = /^(?:\\[rn]|[A-Za-z0-9+/=])*["'`]{0,3}\s*[,+;)]?\s*$/;
// Between BEGIN and END on one line: base64, escapes, spaces, quotes, and some base64 at least.
const KEY_BETWEEN = /^(?:\\[rn]|[A-Za-z0-9+/=\s"'`,+])*$/;

function isKeyBetween(text: string): boolean {
  return KEY_BETWEEN.test(text) && /[A-Za-z0-9+/]{4}/.test(text);
}

// A line inside a PEM block: base64 (possibly quoted, escaped or concatenated in code) or one of
// the headers of encrypted PEM and of PGP armour.
const KEY_BODY =
  /^\s*["']?[A-Za-z0-9+/=]*(?:\\n)?["']?\s*[,+]?\s*$|^\s*(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): /;

/** True for values that stand for a secret rather than being one: `****`, `<token>`, `${PASSWORD}`. */
export function isPlaceholder(value: string): boolean {
  if (/^(.)\1*$/.test(value)) return true;
  if (/^(?:\[redacted|<|\$|\{|%|\*\*\*|\.\.\.|…)/i.test(value)) return true;
  return /^(?:redacted|hidden|masked|removed|secret|password|passwd|pass|token|changeme|null|none|nil|undefined|empty|example|placeholder)$/i.test(
    value,
  );
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

/** A machine-made token: letters of both cases and digits (or a long hex run), not a word. */
function isRandom(s: string): boolean {
  const body = withoutPrefix(s);
  if (/^[0-9a-f]{32,}$/.test(body)) return true;
  return /[a-z]/.test(body) && /[A-Z]/.test(body) && /\d/.test(body) && entropy(body) >= 3 && !isWordy(body);
}

/** Looser than isRandom, for tokens whose prefix is specific: digits or both cases will do. */
function isMixed(s: string): boolean {
  const body = withoutPrefix(s);
  const digits = /\d/.test(body);
  const upper = /[A-Z]/.test(body);
  const lower = /[a-z]/.test(body);
  return ((digits && (upper || lower)) || (upper && lower)) && entropy(body) >= 3 && !isWordy(body);
}

/** A token without its provider prefix: `sk-proj-`, `sk_live_`, `npm_`, ... */
function withoutPrefix(s: string): string {
  return s.replace(/^[a-z]{2,6}[-_.](?:(?:proj|svcacct|admin|live|test|None)[-_])?/, '');
}

/** A value in a place made for a secret (a header, an .npmrc field): anything but a placeholder or words. */
function isOpaque(value: string): boolean {
  return !isPlaceholder(value) && !isWordy(value);
}

/** A value assigned to a `password`/`token`-like key that looks random rather than like code or prose. */
function isRandomValue(raw: string): boolean {
  const value = raw.replace(/[.)\]}>]+$/, '');
  if (!isOpaque(value)) return false;
  // Paths, URLs, and code: calls, indexing, generics.
  if (/^(?:[./~@#&?]|[A-Za-z]:\\)/.test(value) || /:\/\/|[()[\]{}<>]/.test(value)) return false;
  // Letters with digits, or a run of letters of both cases: not a word, a number or an expression.
  if (!/[A-Za-z]/.test(value)) return false;
  const mixedCase = /^[A-Za-z_-]+$/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value);
  if (!/\d/.test(value) && !mixedCase) return false;
  // Random strings of n characters have close to log2(n) bits per character.
  return entropy(value) >= Math.min(3, Math.log2(value.length) - 1.2);
}

/**
 * Names and words rather than random characters: identifiers, code references and paths such
 * as `YOUR_TOKEN`, `self.oauth2_settings.client_secret`, `V1SecretProjection`,
 * `projects/my-project/secrets/db/versions/2`. Judged by the humps of letters (camelCase,
 * snake_case): mostly three letters or more in names, shorter in random strings; and by the
 * digits: few, short, and not followed by lower case (`k8s` and `e2e` aside) in names. Of
 * 27,000 identifiers from installed Python and TypeScript sources, 88% pass; of random
 * tokens of 16 to 48 characters, under 0.2%.
 */
function isWordy(value: string): boolean {
  let humps = 0;
  let letters = 0;
  let short = 0;
  let numbers = 0;
  for (const part of value.split(/[._\-$/:]+/)) {
    let covered = 0;
    let before = '';
    let beforeThat = '';
    for (const [hump] of part.matchAll(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g)) {
      covered += hump.length;
      if (hump.charCodeAt(0) <= 0x39) {
        if (hump.length > 3) return false;
        numbers++;
      } else {
        humps++;
        letters += hump.length;
        if (hump.length < 3) short++;
        const afterDigits = before !== '' && before.charCodeAt(0) <= 0x39;
        if (afterDigits && hump.charCodeAt(0) >= 0x61 && !(beforeThat.length === 1 && before.length <= 2))
          return false;
      }
      beforeThat = before;
      before = hump;
    }
    if (covered !== part.length) return false;
  }
  // Many humps must be long ones: random mixed case also makes the odd camelCase-looking run.
  const longHumps = humps <= 4 || letters / humps >= 4.5;
  return humps > 0 && short * 3 <= humps && numbers <= Math.max(1, humps / 3) && longHumps;
}

function isJwt(s: string): boolean {
  const header = Buffer.from(s.slice(0, s.indexOf('.')), 'base64url').toString('latin1');
  return header.startsWith('{') && /"(?:alg|typ|kid|enc)"/.test(header);
}

/** Masks the one-line secrets in `text` (which holds no private-key block). */
function maskTokens(text: string, found: (kind: SecretKind) => void): string {
  const words = WORD_HINTS.test(text);
  const literals = HINTS.test(text);
  if (!words && !literals) return text;
  for (const rule of RULES) {
    if (!(rule.hint.ignoreCase ? words : literals) || !rule.hint.test(text)) continue;
    // A test costs a fraction of a replace that finds nothing.
    rule.re.lastIndex = 0;
    if (!rule.re.test(text)) continue;
    text = text.replace(
      rule.re,
      (whole: string, keep: string, secret: string, offset: number, line: string) => {
        // A sentence's full stop after a token is not part of it.
        const dots = /\.+$/.exec(secret)?.[0] ?? '';
        const value = dots ? secret.slice(0, -dots.length) : secret;
        if (value.includes('[redacted:') || (rule.accept && !rule.accept(value, line, offset))) return whole;
        found(rule.kind);
        return keep + mask(rule.kind) + dots;
      },
    );
  }
  return text;
}

/** Keeps a line's indentation and its `\r`, masks the rest: a line inside a private-key block. */
function maskKeyLine(line: string): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return indent + mask('private-key') + (line.endsWith('\r') ? '\r' : '');
}

/** What one line does to PEM private-key blocks, given whether a block was open before it. */
export interface KeyStep {
  /** The line with its private-key parts masked (other secrets are left to the caller). */
  text: string;
  /** The line is part of the block open before it (a line of the key, or its END line). */
  continues: boolean;
  /** The line opens a block that is still open after it (a key spread over several lines). */
  opens: boolean;
  /** A block is open after the line: the next line may be part of a key. */
  open: boolean;
  /** Keys that start on this line (a BEGIN marker followed by a key, closed or not). */
  keys: number;
}

/** True when a line may touch a key block: one is open, or the line holds a BEGIN marker. */
export function mayTouchKey(line: string, open: boolean): boolean {
  return open || line.includes('-----BEGIN ');
}

/**
 * Follows PEM private-key blocks through one line, reading every BEGIN and END marker on it in
 * order: a line holding a BEGIN and its END closes its own block (a key in a JSON or code string,
 * a GCP service-account file), and text after an END is read for further markers. A BEGIN
 * followed by prose rather than base64 is a mention of the marker, not a key. Inside a block,
 * the first line that cannot belong to a key (not base64, a PEM header, blank or the END line)
 * ends it, so that a truncated key does not swallow the lines after it.
 * Pure: the caller keeps `open` from one line to the next.
 */
export function keyBlockStep(line: string, openBefore: boolean): KeyStep {
  let out = '';
  let rest = line;
  let continues = false;
  let keys = 0;
  if (openBefore) {
    END_KEY.lastIndex = 0;
    const end = END_KEY.exec(rest);
    const body = end ? rest.slice(0, end.index) : rest;
    const blank = body.trim() === '';
    const inside = blank || KEY_BODY.test(body);
    if (inside && !end)
      return { text: blank ? rest : maskKeyLine(rest), continues: true, opens: false, open: true, keys };
    // The END line, or a line that cannot be part of the key: the block is over.
    if (inside && end) {
      continues = true;
      out = maskKeyLine(body);
      rest = rest.slice(end.index + end[0].length);
    }
  }
  // Offsets into `rest`; the first END after a point is looked up once, not once per BEGIN.
  let from = 0;
  let end: RegExpExecArray | null = null;
  let endKnown = false;
  for (;;) {
    BEGIN_KEY.lastIndex = from;
    const begin = BEGIN_KEY.exec(rest);
    if (!begin) return { text: out + rest.slice(from), continues, opens: false, open: false, keys };
    const afterAt = begin.index + begin[0].length;
    if (!endKnown || (end && end.index < afterAt)) {
      END_KEY.lastIndex = afterAt;
      end = END_KEY.exec(rest);
      endKnown = true;
    }
    const key = end ? isKeyBetween(rest.slice(afterAt, end.index)) : KEY_START.test(rest.slice(afterAt));
    if (!key) {
      // A mention of the markers (in prose or code), not a key.
      out += rest.slice(from, afterAt);
      from = afterAt;
      continue;
    }
    keys++;
    out += rest.slice(from, begin.index) + mask('private-key');
    if (!end) {
      const text = out + (line.endsWith('\r') ? '\r' : '');
      return { text, continues, opens: true, open: true, keys };
    }
    from = end.index + end[0].length;
  }
}

/**
 * Masks line by line, remembering across lines whether it is inside a PEM private-key block,
 * so that a key printed over many lines is masked whole (each of its lines becomes
 * `[redacted:private-key]`, so line numbers are kept). See `keyBlockStep` for where a block
 * starts and ends.
 */
export class Redactor {
  #inKey = false;
  readonly #counts = new Map<SecretKind, number>();
  readonly #found = (kind: SecretKind): void => {
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + 1);
  };

  /** True while inside a private-key block (the next line may be part of the key). */
  get inPrivateKey(): boolean {
    return this.#inKey;
  }

  /** How many secrets of each kind were masked so far (a multi-line key counts once). */
  get counts(): ReadonlyMap<SecretKind, number> {
    return this.#counts;
  }

  /** Masks one line (without its `\n`). */
  line(line: string): string {
    if (!mayTouchKey(line, this.#inKey)) return maskTokens(line, this.#found);
    const step = keyBlockStep(line, this.#inKey);
    this.#inKey = step.open;
    for (let i = 0; i < step.keys; i++) this.#found('private-key');
    return maskTokens(step.text, this.#found);
  }

  /**
   * Follows a line without masking it, only to track private-key blocks: feed the lines
   * before a range being printed, then `line()` the range. Much cheaper than `line()`.
   */
  skip(line: string): void {
    if (mayTouchKey(line, this.#inKey)) this.#inKey = keyBlockStep(line, this.#inKey).open;
  }
}

/**
 * Masks the secrets in one line, with no memory of earlier lines: a private-key block spread
 * over several lines is masked only from its BEGIN line onward within that line. Use a
 * `Redactor` for consecutive lines.
 */
export function redactLine(line: string): string {
  return new Redactor().line(line);
}

/** Masks the secrets in a whole text (lines separated by `\n`), private-key blocks included. */
export function redact(text: string): string {
  if (!mightHoldSecret(text) && !text.includes('-----BEGIN ')) return text;
  const redactor = new Redactor();
  return text
    .split('\n')
    .map((line) => redactor.line(line))
    .join('\n');
}
