import { describe, expect, it } from 'vitest';
import { LINE_CAP, showLine } from '../../src/search/format.js';

// One JSON-lines error record as a logger prints it (one object per line, ~1 KB).
const record = JSON.stringify({
  level: 50,
  time: 1764072000000,
  pid: 4242,
  hostname: 'build-7f9c',
  reqId: 'req-5c1d',
  msg: 'request failed',
  err: {
    type: 'Error',
    message: 'payment gateway refused the charge: card_declined (insufficient_funds)',
    stack: `Error: payment gateway refused the charge\n${'    at Object.<anonymous> (/srv/app/node_modules/some/deep/module/index.js:1:1)\n'.repeat(8)}    at chargeCard (/srv/app/src/billing/charge.ts:88:13)`,
    code: 'E_GATEWAY',
    orderId: 'ord_91ab77',
  },
});

describe('a long line in a hit shows the window around every query word', () => {
  it('shows the message, the frame and the id of a 1 KB JSON error record', () => {
    expect(record.length).toBeGreaterThan(900);
    const shown = showLine({ text: record }, ['charge.ts', 'insufficient_funds', 'ord_91ab77']);
    expect(shown).toContain('insufficient_funds');
    expect(shown).toContain('charge.ts:88:13');
    expect(shown).toContain('ord_91ab77');
    expect(shown.length).toBeLessThanOrEqual(2 * LINE_CAP + 40);
    expect(shown).toMatch(/bytes cut\]…/);
  });

  it('finds a phrase inside a one-line minified bundle and shows the window around it', () => {
    const bundle = `${'!function(e){var t={};function n(r){if(t[r])return t[r].exports}'.repeat(2000)}throw new Error("quokka registry unavailable")${';n.d=function(e,t){}'.repeat(2000)}`;
    const shown = showLine({ text: bundle }, ['quokka', 'registry']);
    expect(shown).toContain('quokka registry unavailable');
    expect(shown.length).toBeLessThanOrEqual(2 * LINE_CAP + 40);
  });

  it('shows the place where the query words are near each other, not the first place of the first word', () => {
    // Each word first alone, far apart; then the words together once, deep in the line.
    const filler = (d: number) => `<span class="n">${d}</span>, `.repeat(300);
    const line = `exponent ${filler(1)}<span class="hljs-number">5</span> ${filler(3)}<span class="hljs-number">.9</span>e-<span class="hljs-number">10</span> exponent form ${filler(2)}`;
    const shown = showLine({ text: line }, ['exponent', 'hljs-number']);
    expect(shown).toContain('hljs-number">.9</span>e-<span class="hljs-number">10</span> exponent');
    expect(shown.length).toBeLessThanOrEqual(2 * LINE_CAP + 40);
  });
});
