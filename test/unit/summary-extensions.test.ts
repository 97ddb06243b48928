import { describe, expect, it } from 'vitest';
import { extensionBits } from '../../src/summary/extensions.js';
import { slotRarity } from '../../src/summary/slots.js';

const keyed = (texts: string[]) => texts.map((text) => ({ text, key: 't1' }));

describe('a column of paths', () => {
  const files = Array.from(
    { length: 300 },
    (_, i) => `npm notice ${(i % 9) + 1}.${i % 7}kB lib/part${i}/index.js`,
  );
  files.splice(120, 0, 'npm notice 3.3kB test/fixtures/key.pem');
  files.splice(200, 0, 'npm notice 1.2kB docs/part1/README.md', 'npm notice 1.4kB docs/part2/README.md');

  it('is read by its extensions: the one private key among hundreds of .js files is rare', () => {
    const slot = slotRarity(keyed(files));
    expect(slot.worth('npm notice 3.3kB test/fixtures/key.pem')).toBeGreaterThan(2);
    expect(slot.worth(files[0] as string)).toBe(0);
    expect(slot.tag('npm notice 3.3kB test/fixtures/key.pem')).toContain('ext.pem');
  });

  it('has no norm when its files are of many kinds, nor when it is no column of paths', () => {
    const mixed = [
      'a/b.js',
      'a/c.ts',
      'a/d.md',
      'a/e.json',
      'a/f.css',
      'a/g.html',
      'a/h.py',
      'a/i.rb',
      'a/j.go',
      'a/k.rs',
    ];
    expect(extensionBits(mixed)).toBeUndefined();
    expect(
      extensionBits(Array.from({ length: 50 }, (_, i) => (i === 7 ? 'key.pem' : `word${i}`))),
    ).toBeUndefined();
  });
});
