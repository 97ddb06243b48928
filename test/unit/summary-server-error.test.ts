import { describe, expect, it } from 'vitest';
import { hasLevelMark } from '../../src/summary/levels.js';
import { summarizeModel } from '../../src/summary/summarize.js';
import { severity } from '../../src/summary/worth.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

describe('an HTTP status 5xx answered to a request', () => {
  const failed = [
    '127.0.0.1 - - [26/Nov/2026:02:19:00 +0000] "POST /2/update HTTP/1.1" 500 265 "-" "curl/7.88.1"',
    '[pid: 7|app: 0|req: 9/9] 127.0.0.1 () {34 vars in 420 bytes} POST /auth/login => generated 265 bytes in 3 msecs (HTTP/1.1 500) 2 headers',
    '{"level":50,"reqId":"req-11x","res":{"statusCode":500},"msg":"request errored"}',
    'at=info method=GET path="/x" status=503 bytes=0',
  ];
  const answered = [
    '127.0.0.1 - - [26/Nov/2026:02:19:00 +0000] "GET /favicon.ico HTTP/1.1" 404 207 "-" "curl/7.88.1"',
    '127.0.0.1 - - [26/Nov/2026:02:19:00 +0000] "GET /page/500 HTTP/1.1" 200 5000 "-" "curl/7.88.1"',
    '{"res":{"statusCode":200},"responseTime":500.2}',
    'sent 500 bytes over HTTP/2 in 5003 ms',
  ];

  it('is an error whether or not the run succeeded; a 404, a 200 or a 500 elsewhere is not', () => {
    // Before, each was plain: worth only its template's rarity in a run that exited 0.
    for (const l of failed) expect(severity(l, true)).toBe(12);
    expect(answered.filter((l) => hasLevelMark(l))).toEqual([]);
  });

  it('is shown as what went wrong among an access log of answered requests and a server that says more', () => {
    const pages = ['/', '/login', '/about', '/items', '/items/2', '/help'];
    // A server's settings, each line its own template, at the start.
    const lines: string[] = Array.from(
      { length: 80 },
      (_, i) => `  setting_${'abcdefghij'[i % 10]}${i}: value ${i * 7}`,
    );
    for (let i = 0; i < 400; i++) {
      const page = pages[i % pages.length];
      lines.push(`[2026-11-26 02:18:${String(i % 60).padStart(2, '0')} +0000] [24841] [DEBUG] GET ${page}`);
      // The application's error, logged in words, again and again.
      if (i % 25 === 3)
        lines.push(
          `[2026-11-26 02:19:00,124] ERROR in app: Exception on /items/${i} [GET]`,
          'Traceback (most recent call last):',
          `  File "/srv/app/views.py", line ${100 + i}, in show`,
          "KeyError: 'price'",
        );
      lines.push(
        i === 200
          ? `127.0.0.1 - - [26/Nov/2026:02:19:00 +0000] "POST /2/update HTTP/1.1" 500 265 "-" "curl/7.88.1"`
          : `127.0.0.1 - - [26/Nov/2026:02:19:00 +0000] "GET ${page} HTTP/1.1" ${i % 9 === 0 ? 404 : 200} ${1000 + i} "-" "curl/7.88.1"`,
      );
    }
    const model = summarizeModel(lines.join('\n'), facts, { budget: 2000 });
    const shown = model.lines.find((l) => l.text.includes('"POST /2/update HTTP/1.1" 500 265'));
    // Before, it was shown as a plain line of output, for its rare status alone.
    expect(shown?.role).toBe('salient');
  });
});
