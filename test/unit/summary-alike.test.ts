import { describe, expect, it } from 'vitest';
import { rankMembers } from '../../src/summary/alike.js';
import { summarize } from '../../src/summary/summarize.js';
import { line, unit } from '../spend-units.js';

describe('the first of alike failures', () => {
  it('goes first, though the last is a hair nearer the end', () => {
    const units = [
      { ...unit([line(790, 'ERROR in app: Exception on /35/update [POST]')], 4.26), salient: true },
      { ...unit([line(460, 'ERROR in app: Exception on /2/update [POST]')], 4.0), salient: true },
    ];
    rankMembers(units);
    expect(units.map((u) => u.line)).toEqual([460, 790]);
  });

  it('goes first against a member a few bytes shorter, not against one clearly worth more', () => {
    const first = {
      ...unit([line(84, 'FAILED'), line(85, 'Unexpected exception: option --x')], 13.6),
      salient: true,
    };
    const later = { ...unit([line(362, 'FAILED'), line(363, 'expected:<x>')], 13.7), salient: true };
    const list = [later, first];
    rankMembers(list);
    expect(list[0]?.line).toBe(84);
    const much = { ...unit([line(400, 'FAILED'), line(401, 'why')], 16), salient: true };
    const again = [first, much];
    rankMembers(again);
    expect(again[0]?.line).toBe(400);
  });

  it('leaves plain lines, and the members of a template of hundreds, in the order of their worth', () => {
    const plain = [unit([line(1, 'a plain line')], 5), unit([line(900, 'a plain line')], 5.2)];
    rankMembers(plain);
    expect(plain.map((u) => u.line)).toEqual([900, 1]);
    // Among hundreds of alike warnings, the one whose variable parts are rare (worth a little
    // more) stays the exemplar.
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...unit([line(10 + i, `lparser.c:${i}:3: warning: enumeration value 'V${i}' not handled`)], 5),
      salient: true,
    }));
    const rare = many[20] as (typeof many)[number];
    rare.score = 5.2;
    rankMembers(many);
    expect(many[0]?.line).toBe(30);
  });

  it('in a summary: the first of twelve alike tracebacks, with its own frame and message', () => {
    const out: string[] = [];
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 30; j++)
        out.push(`127.0.0.1 - - [26/Nov/2026:02:19:0${i % 10}] "GET /${i}/${j} HTTP/1.1" 200 13`);
      out.push(`[2026-11-26 02:19:0${i % 10},124] ERROR in app: Exception on /${i + 2}/update [POST]`);
      out.push('Traceback (most recent call last):');
      out.push('  File "/srv/app/flaskr/blog.py", line 104, in update');
      out.push('    db.execute(');
      out.push('sqlite3.ProgrammingError: Incorrect number of bindings supplied.');
    }
    for (let j = 0; j < 25; j++) out.push(`[INFO] shutting down ${j}`);
    const text = summarize(`${out.join('\n')}\n`, { exitCode: 0 }, { budget: 700 });
    expect(text).toContain('Exception on /2/update [POST]');
  });
});
