// Issue 20 (Low): `--tee` and a few messages echoed raw escapes (OSC 52, CSI 2J, bidi, a run-dir
// name). `--tee` now streams through TeeEscaper; stats and clean show the run directory escaped.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanResults } from '../../src/commands/clean.js';
import { showStats } from '../../src/commands/stats.js';
import { resolveTtl } from '../../src/env.js';
import { TeeEscaper } from '../../src/tee-escape.js';
import { inProcess, tempDir, writeResult } from '../support.js';

/** Anything a terminal acts on, other than a newline, a tab, a carriage return and colours. */
const RAW = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** The escaper's output for `chunks`, fed one by one. */
function tee(chunks: (string | Buffer)[], color = false): string {
  const e = new TeeEscaper({ color });
  return chunks.map((c) => e.push(Buffer.from(c))).join('') + e.end();
}

describe('TeeEscaper (--tee)', () => {
  it.each([
    ['OSC 52 (clipboard)', 'a\x1b]52;c;SGVsbG8=\x07b\n', 'ab\n'],
    ['OSC 52 ended by ST', 'a\x1b]52;c;SGVsbG8=\x1b\\b\n', 'ab\n'],
    ['CSI 2J (clear screen)', 'x\x1b[2Jy\n', 'xy\n'],
    ['a title', '\x1b]0;pwned\x07ok\n', 'ok\n'],
    ['bidi override', 'abc\u202eevil\n', 'abc<U+202E>evil\n'],
    ['C1 CSI', 'a\x9b2Jb\n', 'ab\n'],
    ['a bell and a backspace', 'a\x07b\x08c\n', 'a^Gb^Hc\n'],
    ['tabs, carriage returns, newlines kept', 'a\tb\r\nc\rd\n', 'a\tb\r\nc\rd\n'],
    ['colours dropped without a terminal', '\x1b[31mred\x1b[0m\n', 'red\n'],
    ['a DCS string', 'a\x1bPq#0;2;0;0;0\x1b\\b\n', 'ab\n'],
  ])('%s', (_name, input, expected) => {
    expect(tee([input])).toBe(expected);
  });

  it('keeps colours (SGR only) for a terminal', () => {
    expect(tee(['\x1b[1;31mred\x1b[0m \x1b[2Jx\n'], true)).toBe('\x1b[1;31mred\x1b[0m x\n');
  });

  it('an escape split across chunks at every byte is still caught', () => {
    const text = 'before \x1b]52;c;SGVsbG8=\x07 mid \x1b[2J after \u202e end\n';
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i++) {
      const out = tee([bytes.subarray(0, i), bytes.subarray(i)]);
      expect(out, `split at ${i}`).toBe('before  mid  after <U+202E> end\n');
    }
  });

  it('an escape that never ends is shown, not held for ever', () => {
    const e = new TeeEscaper({ color: false });
    let out = e.push(Buffer.from('\x1b]52;c;'));
    out += e.push(Buffer.from('A'.repeat(100_000)));
    expect(out.length).toBeGreaterThan(90_000);
    out += e.end();
    expect(RAW.test(out)).toBe(false);
  });

  it('passes invalid UTF-8 through as replacement characters, split or not', () => {
    expect(tee([Buffer.from([0x61, 0xe2, 0x80]), Buffer.from([0xae, 0x62, 0xff, 0x0a])])).toBe(
      'a<U+202E>b\ufffd\n',
    );
  });
});

describe('messages that name the run directory', () => {
  const hostile = () => {
    const dir = join(tempDir(), 'run\x1b]52;c;SGVsbG8=\x07\x1b[2J\u202e');
    mkdirSync(dir, { recursive: true });
    writeResult(dir, 'make_00000001', 'hello\n', {
      command: ['printf', '\x1b]52;c;SGVsbG8=\x07\x1b[2J\u202e'],
    });
    return dir;
  };

  it('stats shows it escaped', async () => {
    const dir = hostile();
    const r = await inProcess((print) => showStats({ runDir: dir, ttlMs: resolveTtl({}), print }));
    expect(r.stdout).toContain('[ctxwrap stats] ');
    expect(RAW.test(r.stdout), JSON.stringify(r.stdout)).toBe(false);
  });

  it.each([
    ['--all', { all: true }],
    ['--all --dry-run', { all: true, dryRun: true }],
    ['nothing older', {}],
  ])('clean %s shows it escaped', async (_name, extra) => {
    const dir = hostile();
    const r = await inProcess((print) =>
      cleanResults({ runDir: dir, olderThanMs: 7 * 86_400_000, olderThanText: '7d', print, ...extra }),
    );
    expect(r.stdout).toContain('[ctxwrap: ');
    expect(RAW.test(r.stdout), JSON.stringify(r.stdout)).toBe(false);
  });
});
