import { describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../../src/config.js';
import { resolveRunDir } from '../../src/env.js';
import { formatBytes, formatCount, formatDuration, formatTokens } from '../../src/format.js';
import { parseDuration } from '../../src/parse-duration.js';
import { ID_PATTERN, newId, slugOf, validateId } from '../../src/store/ids.js';
import { guessType, looksBinary } from '../../src/summary/sniff.js';
import { sniffCases } from './sniff-cases.js';

describe('format', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1.0 kB'],
    [112010, '112 kB'],
    [2078368, '2.1 MB'],
    [1e9, '1.0 GB'],
  ])('formatBytes(%d) = %s', (n, s) => expect(formatBytes(n)).toBe(s));
  it.each([
    [12, '12ms'],
    [1234, '1.2s'],
    [65_000, '1m05s'],
    [7_380_000, '2h03m'],
  ])('formatDuration(%d) = %s', (n, s) => expect(formatDuration(n)).toBe(s));
  it.each([
    [840, '840'],
    [1500, '1.5k'],
    [28_000, '28k'],
    [3_400_000, '3.4M'],
  ])('formatTokens(%d) = %s', (n, s) => expect(formatTokens(n)).toBe(s));
  it('formatCount groups thousands', () => expect(formatCount(1234567)).toBe('1,234,567'));
});

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['7d', 604_800_000],
    ['1.5', 1500],
  ])('%s = %d ms', (text, ms) => expect(parseDuration(text, '--timeout')).toBe(ms));
  it.each(['', 'soon', '5 minutes', '-1s', '0', '1w'])('rejects %j with a one-line message', (text) => {
    expect(() => parseDuration(text, '--timeout')).toThrow(/^--timeout (takes a duration|must be greater)/);
  });
});

describe('ids', () => {
  it.each([
    ['npm', 'npm'],
    ['/usr/bin/apt-get', 'apt-get'],
    ['./build.sh', 'build'],
    ['My Tool!', 'my-tool'],
    ['', 'out'],
    ['---', 'out'],
    ['a'.repeat(40), 'a'.repeat(24)],
  ])('slugOf(%j) = %s', (name, slug) => expect(slugOf(name)).toBe(slug));
  it('makes ids of the documented shape', () => {
    for (const name of ['npm', '', 'x/y/z', '漢字']) expect(newId(name)).toMatch(ID_PATTERN);
  });
  it.each([
    '../../etc/passwd',
    '/etc/passwd',
    '',
    'npm_3f2a9c1',
    'npm_3f2a9c1bb',
    'NPM_3f2a9c1b',
    'npm_3f2a9c1b/..',
    'a'.repeat(300),
  ])('validateId refuses %j', (id) => expect(() => validateId(id)).toThrow(/^invalid result id/));
  it('validateId accepts a real id', () => expect(validateId('npm_3f2a9c1b')).toBe('npm_3f2a9c1b'));
});

describe('configuration', () => {
  it('resolves defaults, then environment, then flags', () => {
    expect(resolveRunConfig({}, { HOME: '/h' })).toMatchObject({
      budget: 2650,
      tailRatio: 0.7,
      inlineThreshold: 2650,
    });
    expect(resolveRunConfig({}, { CTXWRAP_BUDGET: '4000' }).budget).toBe(4000);
    expect(resolveRunConfig({ budget: '800' }, { CTXWRAP_BUDGET: '4000' }).budget).toBe(800);
    expect(resolveRunConfig({}, { CTXWRAP_TIMEOUT: '5s' }).timeoutMs).toBe(5000);
    expect(() => resolveRunConfig({}, { CTXWRAP_BUDGET: 'x' })).toThrow(
      /^CTXWRAP_BUDGET takes a whole number/,
    );
  });
  it('resolves the run directory: flag, env, XDG state, home', () => {
    expect(resolveRunDir('/a', { CTXWRAP_RUN_DIR: '/b' })).toBe('/a');
    expect(resolveRunDir(undefined, { CTXWRAP_RUN_DIR: '/b', XDG_STATE_HOME: '/s' })).toBe('/b');
    expect(resolveRunDir(undefined, { XDG_STATE_HOME: '/s' })).toBe('/s/ctxwrap');
  });
});

describe('binary sniffing', () => {
  it.each(sniffCases())('%s', (_name, bytes, binary, type) => {
    expect(looksBinary(bytes)).toBe(binary);
    expect(guessType(bytes)).toBe(type);
  });
});
