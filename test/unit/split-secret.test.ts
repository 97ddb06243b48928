import { describe, expect, it } from 'vitest';
import { shieldFor } from '../../src/shield.js';

// Issue 20 #7: a secret split over two lines. Lines fed in order to one shield, as read and
// the summary print them.
function shown(lines: string[]): string[] {
  const shield = shieldFor();
  return lines.map((l, i) => shield(i + 1, l));
}
const JWT = [
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZBS0UifQ',
  'c2lnbmF0dXJlRkFLRXNpZ25hdHVyZQ',
].join('.');

describe('secrets split over two lines', () => {
  it.each([
    [
      'Bearer, then the token',
      ['Authorization: Bearer', '  Xq7vR2mP9zKw4TbN8sLd3YhG6aFj1EcU'],
      'Xq7vR2mP9zKw4TbN8sLd3YhG6aFj1EcU',
    ],
    ['a wrapped JWT', [`token=${JWT.slice(0, 60)}`, JWT.slice(60)], JWT.slice(60)],
    ['a wrapped AWS key id', ['key id AKIA52GEX', 'AMPLEVV3IOQ in use'], 'AMPLEVV3IOQ'],
    // Its first part without a digit near its end, its rest shorter than 8 characters.
    ['a wrapped AWS key id cut after letters', ['key=AKIAQWERTYUIOP', 'ASDFGH'], 'ASDFGH'],
    ['a YAML value on the next line', ['  password:', '    Xq7vR2mP9zKw4TbN'], 'Xq7vR2mP9zKw4TbN'],
  ])('masks %s', (_name, lines, secret) => {
    expect(shown(lines).join('\n')).not.toContain(secret);
  });

  it.each([
    [['Authorization: Bearer', 'is the header to send']],
    [['  password:', '    <your password>']],
    [['commit 3f2a9c1e0b7d4a6f8e9c', '0b1a2d3e4f5a']],
    [['step 1 of 3', 'Downloading packages']],
    [['see AKIA', 'docs for the key format']],
    [['error: AKIA', 'keys are twenty characters']],
  ])('leaves %j', (lines) => {
    expect(shown(lines)).toEqual(lines);
  });
});
