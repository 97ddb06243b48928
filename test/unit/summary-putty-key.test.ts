import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

// Issue 20 #7: a PuTTY key file's private part (the N lines after `Private-Lines: N`) was printed
// by the summary, which follows key blocks only on the lines it reads.
const secret = (k: number) => `AAABAQCq${'S3CRET'.repeat(9)}${k}`;
const ppk = [
  'PuTTY-User-Key-File-3: ssh-rsa',
  'Encryption: none',
  'Comment: rsa-key-20261125',
  'Public-Lines: 1',
  'AAAAB3NzaC1yc2EAAAADAQABAAABAQCxyzPublic',
  'Private-Lines: 3',
  secret(1),
  secret(2),
  secret(3),
  'Private-MAC: 6f1b3b0e0f5c3a1e2d4c5b6a7980a1b2c3d4e5f60718293a4b5c6d7e8f901234',
];
const facts = { id: 'cat_00000000', exitCode: 0, durationMs: 5, path: '/tmp/x.txt' };

describe('a PuTTY key in an output', () => {
  it.each([
    ['printed whole', ppk],
    [
      'in the middle of a long output',
      [...Array.from({ length: 400 }, (_, i) => `step ${i} ok`), ...ppk, 'done'],
    ],
  ])('%s: its private lines are masked, exactly those', (_name, lines) => {
    const out = summarize(`${lines.join('\n')}\n`, facts);
    for (const k of [1, 2, 3]) expect(out).not.toContain(secret(k));
    expect(out).toContain('Private-Lines: 3');
    if (lines.length < 20) {
      expect(out).toContain('Private-MAC: 6f1b');
      expect(out.match(/\[redacted:private-key\]/g)).toHaveLength(3);
    }
  });
});
