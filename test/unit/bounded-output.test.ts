import { describe, expect, it } from 'vitest';
import { BoundedOutput, SHORT_NOTE } from '../../src/read/bounded-output.js';

const LONG_NOTE = '[ctxwrap: no line fits in --max-chars 50 with this note; raise --max-chars]';

describe('BoundedOutput with no room for any line', () => {
  it('keeps the closing note within --max-chars when it can (issue 20, read --max-chars 50)', () => {
    const out = new BoundedOutput(50);
    out.add(1, 'x'.repeat(200));
    const note = out.fit(() => LONG_NOTE);
    expect(out.text(note).length).toBeLessThanOrEqual(51);
    expect(note).toBe(SHORT_NOTE);
  });

  it('keeps the full note when it fits', () => {
    const out = new BoundedOutput(100);
    expect(out.fit(() => LONG_NOTE)).toBe(LONG_NOTE);
  });
});
