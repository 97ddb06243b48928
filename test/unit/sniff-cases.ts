import { readFileSync } from 'node:fs';

/** [name, bytes, binary?, type] */
export function sniffCases(): Array<[string, Uint8Array, boolean, string | undefined]> {
  const random = new Uint8Array(4096);
  let x = 12345;
  for (let i = 0; i < random.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    random[i] = x & 0xff;
  }
  const textWithNul = Buffer.from(`${'a log line with a stray NUL\n'.repeat(100)}\0 in a test name\n`);
  return [
    ['node binary', readFileSync(process.execPath).subarray(0, 8192), true, 'ELF executable'],
    ['gzip', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), true, 'gzip data'],
    ['random bytes', random, true, undefined],
    ['utf-8 text', Buffer.from('héllo wörld ✓ 漢字\n'.repeat(50)), false, undefined],
    ['ansi text', Buffer.from('\x1b[31mred\x1b[0m\r\n'.repeat(50)), false, undefined],
    ['text with one NUL', textWithNul, false, undefined],
    ['latin1 text', Buffer.from('caf\xe9 cr\xe8me\n'.repeat(50), 'latin1'), false, undefined],
    ['empty', new Uint8Array(0), false, undefined],
  ];
}
