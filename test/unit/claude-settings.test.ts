import { describe, expect, it } from 'vitest';
import {
  BLOCK_END,
  BLOCK_START,
  canonicalJson,
  isCtxwrapHandler,
  withBlock,
  withCtxwrapHooks,
  withoutBlock,
  withoutCtxwrapHooks,
} from '../../src/hook/claude-settings.js';

const block = (body: string) => `${BLOCK_START}\n${body}${BLOCK_END}\n`;

describe('the CLAUDE.md block', () => {
  it.each([
    ['', block('S\n')],
    ['# A\n', `# A\n\n${block('S\n')}`],
    ['# A', `# A\n\n${block('S\n')}`],
    [`x\n\n${block('old\n')}y\n`, `x\n\n${block('S\n')}y\n`],
  ])('withBlock(%j)', (text, expected) => {
    expect(withBlock(text, 'S\n')).toBe(expected);
  });

  it('changes nothing when the block is already there', () => {
    expect(withBlock(`# A\n\n${block('S\n')}`, 'S\n')).toBeUndefined();
  });

  it.each([
    [`# A\n\n${block('S\n')}`, '# A\n'],
    [block('S\n'), ''],
    [`x\n\n${block('S\n')}\ny\n`, 'x\n\ny\n'],
    ['no block\n', undefined],
    ['<!-- another comment -->\n', undefined],
  ])('withoutBlock(%j)', (text, expected) => {
    expect(withoutBlock(text)).toBe(expected);
  });
});

describe('the settings hooks', () => {
  it.each([
    ['ctxwrap hook claude', true],
    ['/usr/local/bin/ctxwrap hook claude', true],
    ["'/a b/bin/ctxwrap.js' hook claude", true],
    ['rtk hook claude', false],
    ['ctxwrap hook claude && rm -rf x', false],
  ])('isCtxwrapHandler(%j) is %s', (command, expected) => {
    expect(isCtxwrapHandler({ type: 'command', command })).toBe(expected);
  });

  it('replaces an old ctxwrap hook (another path) instead of adding a second', () => {
    const old = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/old/ctxwrap hook claude' }] }],
      },
    };
    const next = withCtxwrapHooks(old, 'ctxwrap hook claude', 'f') as { hooks: { PreToolUse: unknown[] } };
    expect(next.hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'ctxwrap hook claude', timeout: 10 }] },
    ]);
    expect(withCtxwrapHooks(next, 'ctxwrap hook claude', 'f')).toBeUndefined();
  });

  it('removes only its own handlers, keeping a group it shares with another hook', () => {
    const shared = {
      a: 1,
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'lint' }, { command: 'ctxwrap hook claude' }] }],
      },
      z: 2,
    };
    const out = withoutCtxwrapHooks(shared, 'f');
    expect(out).toEqual({
      a: 1,
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ command: 'lint' }] }] },
      z: 2,
    });
    expect(Object.keys(out as object)).toEqual(['a', 'hooks', 'z']);
    expect(withoutCtxwrapHooks({ a: 1 }, 'f')).toBeUndefined();
  });

  it.each([[{ hooks: [] }], [{ hooks: { PreToolUse: {} } }]])(
    'refuses hooks it cannot edit: %j',
    (settings) => {
      expect(() => withCtxwrapHooks(settings, 'ctxwrap hook claude', 'f')).toThrow(/fix it by hand/);
    },
  );

  it('compares settings whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: 3 } })).toBe(
      canonicalJson({ a: { c: 3, d: [1, { x: 2, y: 1 }] }, b: 1 }),
    );
  });
});
