import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GITLEAKS_RULES } from '../../src/gitleaks-rules.js';
import { mightHoldSecret, Redactor, redact, redactLine } from '../../src/redact.js';
import { mask, SECRET_KINDS, type SecretKind } from '../../src/secret-kinds.js';

// ---- The corpus (fixtures/secrets/*.txt; the file headers describe the format) ----

interface Case {
  /** First line of the case, for the test name. */
  name: string;
  kind: SecretKind | undefined;
  input: string;
  expected: string;
  secrets: string[];
}

const MARK = /«([^»]*)»/g;

function loadCorpus(file: string, withKind: boolean): Case[] {
  const text = readFileSync(new URL(`../../fixtures/secrets/${file}`, import.meta.url), 'utf8').replaceAll(
    '{{}}',
    '',
  );
  const lines = text.split('\n');
  const cases: Case[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '' || line.startsWith('#')) continue;
    let kind: string | undefined;
    let body: string;
    const head = withKind ? /^(\S+) (.*)$/.exec(line) : null;
    if (withKind && !head) throw new Error(`${file}:${i + 1}: expected "<kind> <text>"`);
    const rest = head ? (head[2] as string) : line;
    kind = head?.[1];
    if (rest === '<<<') {
      const end = lines.indexOf('>>>', i + 1);
      if (end < 0) throw new Error(`${file}:${i + 1}: block without ">>>"`);
      body = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      body = rest;
    }
    if (kind !== undefined && !(SECRET_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`${file}:${i + 1}: unknown kind ${kind}`);
    }
    const k = kind as SecretKind | undefined;
    cases.push({
      name: `${k ?? ''} ${body.split('\n')[0]?.replace(MARK, '$1').slice(0, 70)}`.trim(),
      kind: k,
      input: body.replace(MARK, '$1'),
      expected: k ? body.replace(MARK, mask(k)) : body,
      secrets: [...body.matchAll(MARK)].map((m) => m[1] as string),
    });
  }
  return cases;
}

const positives = loadCorpus('positives.txt', true);
const negatives = loadCorpus('negatives.txt', false);

describe('redact over the corpus', () => {
  it('has positives of every kind, each marking its secret', () => {
    expect(new Set(positives.map((c) => c.kind))).toEqual(new Set(SECRET_KINDS));
    for (const c of positives) expect(c.secrets.length, c.name).toBeGreaterThan(0);
    expect(negatives.length).toBeGreaterThan(80);
  });

  it.each(positives.map((c) => [c.name, c] as const))('masks %s', (_name, c) => {
    const out = redact(c.input);
    expect(out).toBe(c.expected);
    for (const secret of c.secrets) expect(out).not.toContain(secret);
  });

  it.each(negatives.map((c) => [c.name, c] as const))('keeps %s', (_name, c) => {
    expect(redact(c.input)).toBe(c.input);
  });

  it('is idempotent on every case', () => {
    for (const c of [...positives, ...negatives]) {
      const once = redact(c.input);
      expect(redact(once), c.name).toBe(once);
    }
  });

  it('gives the same result fed line by line to one Redactor', () => {
    for (const c of [...positives, ...negatives]) {
      const r = new Redactor();
      const lines = c.input.split('\n').map((l) => r.line(l));
      expect(lines.join('\n'), c.name).toBe(redact(c.input));
      if (!c.kind) expect(r.inPrivateKey, c.name).toBe(false);
    }
  });

  it('gives the same result from any line on after skip() over the lines before it', () => {
    for (const c of positives.filter((p) => p.input.includes('\n'))) {
      const lines = c.input.split('\n');
      const whole = redact(c.input).split('\n');
      for (let from = 0; from <= lines.length; from++) {
        const r = new Redactor();
        for (const l of lines.slice(0, from)) r.skip(l);
        expect(
          lines.slice(from).map((l) => r.line(l)),
          `${c.name} from ${from}`,
        ).toEqual(whole.slice(from));
      }
    }
  });

  it('keeps `\\r` line ends', () => {
    for (const c of positives) {
      expect(redact(c.input.replaceAll('\n', '\r\n')), c.name).toBe(c.expected.replaceAll('\n', '\r\n'));
    }
  });
});

// ---- Private-key blocks ----

const KEY = ['-----BEGIN RSA PRIVATE', 'KEY-----'].join(' ');
const KEY_END = ['-----END RSA PRIVATE', 'KEY-----'].join(' ');
const BODY = [
  'MIIEFAKEowIBAAKCAQEAq7Zp3EXAMPLEm0tRgeLezV6ffAt0gunX9k2Lw8Qy/4Hd',
  'Rk3Vn8FAKEsT2q+Lm5Wz0Yb7Xc9Ue1Ai4Og6Ph8Jd2Kf0Nr3Mt5Qv7Sw9Ty1Ux3Z',
] as const;
const masked = mask('private-key');

describe('Redactor and private-key blocks', () => {
  it.each([
    ['a whole block', [KEY, ...BODY, KEY_END], [masked, masked, masked, masked]],
    [
      'text around it',
      ['before', KEY, ...BODY, `${KEY_END} after`, 'next'],
      ['before', masked, masked, masked, `${masked} after`, 'next'],
    ],
    [
      'indentation',
      [`  ${KEY}`, `  ${BODY[0]}`, `  ${KEY_END}`],
      [`  ${masked}`, `  ${masked}`, `  ${masked}`],
    ],
    [
      'a blank line inside',
      [KEY, 'Proc-Type: 4,ENCRYPTED', '', BODY[0], KEY_END],
      [masked, masked, '', masked, masked],
    ],
    [
      'a truncated key',
      [KEY, BODY[0], 'npm ERR! code 1', 'done'],
      [masked, masked, 'npm ERR! code 1', 'done'],
    ],
    [
      'two blocks on one line',
      [`a ${KEY}\\nMIIEFAKE\\n${KEY_END} b ${KEY} AbCdEFAKE== ${KEY_END} c`],
      [`a ${masked} b ${masked} c`],
    ],
    [
      'markers mentioned, not a key',
      [`the file starts with '${KEY}' and`, `ends with '${KEY_END}'.`, `("${KEY}", "${KEY_END}")`],
      null,
    ],
    ['a public key', ['-----BEGIN PUBLIC KEY-----', BODY[0], '-----END PUBLIC KEY-----'], null],
    ['a certificate', ['-----BEGIN CERTIFICATE-----', BODY[0], '-----END CERTIFICATE-----'], null],
  ] as const)('masks %s', (_name, lines, expected) => {
    const r = new Redactor();
    expect(lines.map((l) => r.line(l))).toEqual(expected ?? lines);
    expect(redact(lines.join('\n'))).toBe((expected ?? lines).join('\n'));
  });

  it('tracks the block across calls and counts it once', () => {
    const r = new Redactor();
    expect(r.line(KEY)).toBe(masked);
    expect(r.inPrivateKey).toBe(true);
    expect(r.line(BODY[0])).toBe(masked);
    expect(r.line(KEY_END)).toBe(masked);
    expect(r.inPrivateKey).toBe(false);
    expect(r.line('token: ghp_' + 'FAKE0123456789abcdefghijABCDEFGHIJ01')).toBe(
      `token: ${mask('github-token')}`,
    );
    expect([...r.counts]).toEqual([
      ['private-key', 1],
      ['github-token', 1],
    ]);
  });

  it('redactLine has no memory: a body line alone is not recognised', () => {
    expect(redactLine(`key=${KEY}`)).toBe(`key=${masked}`);
    expect(redactLine(BODY[0])).toBe(BODY[0]);
  });
});

// ---- Property tests ----

/** Deterministic pseudo-random characters (fast-check's own strings lean towards repeats). */
function randomChars(seed: number, n: number, alphabet: string): string {
  let x = Math.imul(seed, 0x9e3779b1) | 1;
  let s = '';
  for (let i = -8; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    if (i >= 0) s += alphabet[(x >>> 0) % alphabet.length];
  }
  return s;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = `${ALNUM}-_`;
const HEX = '0123456789abcdef';
const rand = (n: number, alphabet = ALNUM) =>
  fc.integer({ min: 1 }).map((seed) => `Aa1${randomChars(seed, n - 3, alphabet)}`);

/**
 * [text containing a secret, the secret] for each kind with a fixed shape (a prefix, a length,
 * a place in a URL). Values in headers and assignments are judged by how random they look;
 * their recall is measured below instead.
 */
const whole = (secret: string): [string, string] => [secret, secret];
const secretArb = fc.oneof(
  rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567').map((v) => whole(`AKIA${v.toUpperCase()}`)),
  rand(35, B64URL).map((v) => whole(`AIza${v}`)),
  rand(36).map((v) => whole(`ghp_${v}`)),
  rand(82, `${ALNUM}_`).map((v) => whole(`github_pat_${v}`)),
  rand(20, B64URL).map((v) => whole(`glpat-${v}`)),
  rand(24).map((v) => whole(`xoxb-1234567890-${v}`)),
  rand(48).map((v) => whole(`sk-${v}`)),
  rand(120, B64URL).map((v) => whole(`sk-proj-${v}`)),
  rand(95, B64URL).map((v) => whole(`sk-ant-api03-${v}`)),
  rand(40).map((v) => whole(`sk_live_${v}`)),
  rand(36).map((v) => whole(`npm_${v}`)),
  rand(14).map((v) => [`postgres://app:${v}@db:5432/x`, v]),
  rand(24).map((v) => [`https://hooks.slack.com/services/T0/B0/${v}`, v]),
  rand(40).map((v) => [`aws_secret_access_key = ${v}`, v]),
  rand(40).map((v) => [`AccountKey=${v}==;`, v]),
) as fc.Arbitrary<[string, string]>;

const wordArb = fc.constantFrom(
  'INFO',
  'error:',
  'the',
  'build',
  'ok',
  '42',
  '2024-05-01T12:00:00Z',
  '->',
  '(x)',
  '',
);
const sepArb = fc.constantFrom(' ', '  ', '\t', '\n', ' "', '" ', "'", ', ', ' | ');

/** Fragments that look like secrets, or like the beginnings of them, glued together at random. */
const FRAGMENTS = [
  ...(
    'sk- sk-ant- sk-proj- ghp_ github_pat_ glpat- xoxb- xapp-1- AKIA ASIA AIza eyJ eyJhbGciOiJIUzI1NiJ9 . - _ = : ' +
    ':// @ user: pass password token secret api_key Bearer Basic AccountKey= ?sig= hooks.slack.com/services/ npm_ ' +
    ':_authToken= GOCSPX- ya29. MIIEvQ [redacted:token] [ ] ( ) & ? # / + %3D Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8 Xk9mP2vL7q ' +
    '0123456789abcdef0123456789abcdef01234567 ******** <token> $TOKEN AKIAIOSFODNN7EXAMPLE aws_secret_access_key= ' +
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY session_token= aaaaaaaaaaaaaaaaaaaaaaaaaaaa é \u{1F600}'
  ).split(' '),
  ...[
    'Authorization: ',
    '-----BEGIN PRIVATE KEY-----',
    '-----END PRIVATE KEY-----',
    '-----BEGIN RSA PRIVATE KEY-----',
    'Proc-Type: 4,ENCRYPTED',
  ],
  ...['"', "'", ' ', '\n', '\r', '\t', '\u0000'],
];
const soupArb = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((a) => a.join(''));

/** Look-alikes that must never be masked: hashes, UUIDs, base64, paths, numbers, words. */
/** The gitleaks keywords that are words (4 letters or more): a random blob may spell one. */
const VENDOR_WORDS = [...new Set(GITLEAKS_RULES.flatMap((r) => r.keywords))].filter((k) =>
  /^[a-z]{4,}$/.test(k),
);

const lookalikeArb = fc.oneof(
  fc
    .integer({ min: 1 })
    .chain((seed) => fc.constantFrom(7, 12, 32, 40, 64).map((n) => randomChars(seed, n, HEX))),
  fc.uuid(),
  fc
    .uint8Array({ minLength: 1, maxLength: 200 })
    .map((b) => Buffer.from(b).toString('base64'))
    // A blob that happens to spell a vendor's name (`AABXraYAAA==` next to a hex token) is what
    // gitleaks' keyword rules are for: that is their call, not a look-alike's.
    .filter((b) => !VENDOR_WORDS.some((w) => b.toLowerCase().includes(w))),
  fc.uint8Array({ minLength: 32, maxLength: 64 }).map((b) => `sha512-${Buffer.from(b).toString('base64')}`),
  fc.integer({ min: 1 }).map((seed) => `sha256:${randomChars(seed, 64, HEX)}`),
  fc.integer({ min: 1 }).map((seed) => `0x${randomChars(seed, 40, HEX)}`),
  fc
    .array(fc.constantFrom('src', 'home', 'dev', 'node_modules', 'lib', 'index.ts', '.cache'), {
      minLength: 1,
    })
    .map((p) => `/${p.join('/')}`),
  fc.integer().map(String),
  wordArb,
);

describe('redact properties', () => {
  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), soupArb), (s) => {
        redact(s);
        redactLine(s);
        const r = new Redactor();
        for (const line of s.split('\n')) {
          r.line(line);
          r.skip(line);
        }
      }),
      { numRuns: 2000 },
    );
  }, 60_000);

  it('never leaves a secret of a known shape in its output', () => {
    fc.assert(
      fc.property(
        fc.array(wordArb, { maxLength: 4 }),
        sepArb,
        secretArb,
        sepArb,
        fc.array(wordArb, { maxLength: 4 }),
        (before, s1, [text, secret], s2, after) => {
          const input = `${before.join(' ')}${s1}${text}${s2}${after.join(' ')}`;
          const out = redact(input);
          expect(out).not.toContain(secret);
          expect(out).toContain('[redacted:');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('masks at least 99% of random values in headers and assignments (fixed seeds)', () => {
    const places = [
      (v: string) => `Authorization: Bearer ${v}`,
      (v: string) => `DB_PASSWORD=${v}`,
      (v: string) => `"api_key": "${v}"`,
      (v: string) => `GITHUB_ENTERPRISE_TOKEN=${v}`,
      (v: string) => `client_secret: ${v}`,
    ];
    for (const place of places) {
      for (const [alphabet, length] of [
        [ALNUM, 20],
        [ALNUM, 32],
        [HEX, 32],
        [B64URL, 40],
      ] as const) {
        let kept = 0;
        for (let seed = 1; seed <= 1000; seed++) {
          const value = randomChars(seed, length, alphabet);
          if (redact(place(value)).includes(value)) kept++;
        }
        expect(kept, `${place('<value>')} ${length}`).toBeLessThanOrEqual(10);
      }
    }
  });

  it('leaves text made only of look-alikes unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(lookalikeArb, sepArb), { maxLength: 20 }), (parts) => {
        const text = parts.map(([a, b]) => a + b).join('');
        expect(redact(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves text with no hint of a secret unchanged, without running any rule', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        fc.pre(!mightHoldSecret(s) && !s.includes('-----BEGIN '));
        expect(redact(s)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent and the same whole or line by line, on glued fragments', () => {
    fc.assert(
      fc.property(soupArb, (s) => {
        const once = redact(s);
        expect(redact(once)).toBe(once);
        const r = new Redactor();
        expect(
          s
            .split('\n')
            .map((l) => r.line(l))
            .join('\n'),
        ).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('runs in bounded time on long adversarial lines', () => {
    const size = 1_000_000;
    const rep = (s: string) => s.repeat(Math.ceil(size / s.length)).slice(0, size);
    const inputs = [
      rep('a'),
      rep(' '),
      rep('sk-'),
      `sk-${rep('A1b')}`,
      rep('eyJ'),
      rep('eyJaaaaaaaaaa.'),
      rep('eyJhbGciOiJIUzI1NiJ9.eyJhbGciOiJIUzI1NiJ9.'),
      rep('password='),
      rep('password: '),
      `password=${rep('aB3')}`,
      rep('"token": "'),
      rep('://'),
      rep('://a:'),
      rep('a:b@'),
      `https://${rep('a')}:`,
      rep('x://aaaaaaaa:bbbbbbbb'),
      rep('AKIA'),
      rep('AKIAAAAAAAAAAAAAAAAAAAAA'),
      rep(KEY),
      rep(`${KEY}${KEY_END}`),
      rep('-----'),
      rep('Authorization: Bearer '),
      rep('authorization:'),
      rep('Bearer '),
      `Bearer ${rep('aB3.')}`,
      rep('ghp_'),
      `ghp_${rep('a')}`,
      rep('github_pat_'),
      rep('xoxb-'),
      `xoxb-${rep('1-')}`,
      rep('hooks.slack.com/services/'),
      rep('?sig='),
      rep('AccountKey='),
      `AccountKey=${rep('A')}`,
      rep(':_authToken='),
      rep('session_token='),
      rep('secret_access_key '),
      `glpat-${rep('a.')}`,
      rep('ya29.'),
      rep('='),
      rep('"'),
      rep('password=Xy1 token=ab ://u:p@ sk-A1 eyJa.eyJb. Bearer x '),
    ];
    for (const input of inputs) {
      const t0 = performance.now();
      redact(input);
      const ms = performance.now() - t0;
      expect(ms, input.slice(0, 40)).toBeLessThan(2000);
    }
    const block = [KEY, ...Array<string>(100_000).fill(BODY[0]), KEY_END].join('\n');
    const t0 = performance.now();
    expect(
      redact(block)
        .split('\n')
        .every((l) => l === masked),
    ).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
