import { describe, expect, it } from 'vitest';
import { commandWords, parseShell, ShellParseError } from '../../src/hook/shell-words.js';

const words = (line: string) => parseShell(line).commands.map((c) => commandWords(c).map((w) => w.text));
const ends = (line: string) => parseShell(line).commands.map((c) => c.end);

describe('parseShell', () => {
  it.each([
    ['npm test', [['npm', 'test']]],
    ['a && b || c; d | e |& f', [['a'], ['b'], ['c'], ['d'], ['e'], ['f']]],
    [`echo 'it''s' "a b" c\\ d`, [['echo', 'its', 'a b', 'c d']]],
    [`r''m -rf x`, [['rm', '-rf', 'x']]],
    ['FOO=1 BAR="x y" make all', [['make', 'all']]],
    ['make 2>&1 >out.log | tee x', [['make'], ['tee', 'x']]],
    ['cat <<EOF | grep x\nhello\nEOF\necho done', [['cat'], ['grep', 'x'], ['echo', 'done']]],
    ['if true; then echo y; fi', [['true'], ['echo', 'y'], []]],
    ['(cd a && ls)', [['cd', 'a'], ['ls']]],
    ['echo $(date) `id`', [['echo', '$(date)', '`id`']]],
    ['echo "$(printf "%s" "a b")"', [['echo', '$(printf "%s" "a b")']]],
    ["echo $'a\\'b'", [['echo', "a'b"]]],
    ['ls # a comment\npwd', [['ls'], ['pwd']]],
    ['diff <(ls a) <(ls b)', [['diff', '<(ls a)', '<(ls b)']]],
  ])('%j', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });

  it.each([
    ['sleep 1 &', ['&']],
    ['a && b', ['&&', '']],
    ['a\nb\n', ['\n', '\n']],
  ])('records what ends each command in %j', (line, expected) => {
    expect(ends(line)).toEqual(expected);
  });

  it('marks expansions as dynamic', () => {
    const [cmd] = parseShell('$CMD "x" "$y" \'$z\'').commands;
    expect(cmd?.words.map((w) => w.dynamic)).toEqual([true, false, true, false]);
  });

  it('collects here-document bodies and substitutions', () => {
    const parsed = parseShell("cat <<-'END' && echo $(whoami) `hostname`\n\tbody $x\n\tEND\n");
    expect(parsed.heredocs).toEqual(['\tbody $x']);
    expect(parsed.substitutions).toEqual(['whoami', 'hostname']);
  });

  it.each([
    `echo 'open`,
    'echo "open',
    'echo $(open',
    'echo `open',
    'cat <<EOF\nno end',
    'cat <<EOF',
    'echo >',
    'echo \\',
  ])('refuses %j', (line) => {
    expect(() => parseShell(line)).toThrow(ShellParseError);
  });
});
