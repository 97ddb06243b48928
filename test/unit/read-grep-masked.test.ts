// New adversarial case (issue 20 asked search to match the masked text only): `read --lines
// grep:` matched the stored text, so a masked secret could be read one character at a time
// (`grep:ghp_Ab12C` hit, `grep:ghp_Ab12X` did not). It now matches what it would show.
import { describe, expect, it } from 'vitest';
import { readResult } from '../../src/commands/read.js';
import { inProcess, tempDir, writeResult } from '../support.js';

const TOKEN = 'ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78';
const KEY = 'MIIEowIBAAKCAQEAtestkeydatahere1234567890abcdefghijklmnopqrstuvw';

function stored(): string {
  const runDir = tempDir();
  writeResult(
    runDir,
    'tok_0000000d',
    `token ${TOKEN} here\nother line\n-----BEGIN RSA PRIVATE KEY-----\n${KEY}\n-----END RSA PRIVATE KEY-----\n`,
    { keyRanges: [{ from: 3, to: 5 }] },
  );
  return runDir;
}

const grep = (runDir: string, pattern: string, redact = true) =>
  inProcess((print) =>
    readResult({
      runDir,
      id: 'tok_0000000d',
      lines: `grep:${pattern}`,
      redact,
      print,
      printBytes: () => true,
      warn: () => {},
    }),
  );

describe('read --lines grep: matches the masked text', () => {
  it.each(['ghp_Ab12C', 'Ab12Cd34', TOKEN, 'ghp_[A-Za-z0-9]{10}', 'MIIEowIBAAKC', 'testkeydata'])(
    'a part of a masked secret is not found: %s',
    async (pattern) => {
      const r = await grep(stored(), pattern);
      expect(r.stdout).toMatch(/no line matches/);
    },
  );

  it('text around the secret is found', async () => {
    const runDir = stored();
    expect((await grep(runDir, 'token')).stdout).toContain('1: token [redacted:github-token] here');
    expect((await grep(runDir, 'here$')).stdout).toContain('1: token [redacted:github-token] here');
  });

  it('--no-redact matches and shows the stored text', async () => {
    expect((await grep(stored(), 'ghp_Ab12C', false)).stdout).toContain(TOKEN);
  });
});
