/**
 * A small reader of POSIX/bash command lines: enough to split a command into simple commands
 * and their words (quotes removed) so that the Claude Code hook can decide whether to leave a
 * command alone. It never runs or rewrites anything. Anything it does not understand (an
 * unterminated quote, substitution or here-document) is a `ShellParseError`: the hook then
 * leaves the command as it was.
 */

export class ShellParseError extends Error {}

/** One word of a simple command. */
export interface Word {
  /** The word with its quotes and backslashes removed (expansions left as written). */
  text: string;
  /** True when the word holds an expansion the shell makes at run time: `$x`, `$(...)`, backticks. */
  dynamic: boolean;
  /** The word as written, quotes and all. */
  raw: string;
}

/** A simple command: its words (assignments and redirections left out) and what ended it. */
export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: Word[];
  words: Word[];
  /** The operator after it: `&&`, `||`, `;`, `&`, `|`, `|&`, newline, `(`, `)`, or '' at the end. */
  end: string;
}

export interface ParsedLine {
  commands: SimpleCommand[];
  /** The bodies of here-documents, which the shell may feed to a command. */
  heredocs: string[];
  /** The text inside command and process substitutions: `$(...)`, backticks, `<(...)`. */
  substitutions: string[];
  /**
   * Every operator in order, with how deep inside `( )` and `{ }` it stands (0: top level;
   * an opening `(` counts at its own level, a closing `)` at the level it returns to).
   */
  operators: { op: string; depth: number }[];
}

const OPERATORS = ['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|', '(', ')', '\n'];
const REDIRECTIONS = ['<<<', '<<-', '<<', '>>', '&>>', '&>', '>&', '<&', '<>', '>|', '<', '>'];
const RESERVED = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'time',
  'in',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Longest command line the reader takes; a longer one is left alone. */
const MAX_LINE = 256 * 1024;
/** Most time the reader may take on one line; past it the line is left alone. */
const PARSE_DEADLINE_MS = 200;

/**
 * Splits a command line into simple commands. Throws `ShellParseError` when it cannot, when the
 * line is longer than `MAX_LINE`, or when reading it takes longer than `deadlineMs`: every step
 * of the loop moves forward, and the deadline is a second guard should one ever not.
 */
export function parseShell(line: string, deadlineMs = PARSE_DEADLINE_MS): ParsedLine {
  if (line.length > MAX_LINE) throw new ShellParseError(`a command longer than ${MAX_LINE} characters`);
  const deadline = performance.now() + deadlineMs;
  let steps = 0;
  const commands: SimpleCommand[] = [];
  const heredocs: string[] = [];
  const subs: string[] = [];
  const pending: { delimiter: string; stripTabs: boolean }[] = [];
  let current: SimpleCommand = { assignments: [], words: [], end: '' };
  let redirectTarget = false;
  let i = 0;

  const operators: { op: string; depth: number }[] = [];
  let depth = 0;
  const finish = (op: string) => {
    for (const w of current.words) {
      if (w.raw === '{') depth++;
      else if (w.raw === '}') depth--;
    }
    if (op === ')') depth--;
    operators.push({ op, depth });
    if (op === '(') depth++;
    current.end = op;
    if (current.words.length > 0 || current.assignments.length > 0 || op !== '') commands.push(current);
    current = { assignments: [], words: [], end: '' };
  };

  while (i < line.length) {
    if (++steps % 1024 === 0 && performance.now() > deadline)
      throw new ShellParseError('the command took too long to read');
    const c = line[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\\' && line[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < line.length && line[i] !== '\n') i++;
      continue;
    }
    if ((c === '<' || c === '>') && line[i + 1] === '(') {
      const end = endOfGroup(line, i + 1, subs);
      subs.push(line.slice(i + 2, end - 1));
      current.words.push({ text: line.slice(i, end), dynamic: true, raw: line.slice(i, end) });
      i = end;
      continue;
    }
    const redirection = REDIRECTIONS.find((r) => line.startsWith(r, i));
    if (redirection) {
      const read = readRedirection(line, i + redirection.length, redirection, pending, subs);
      i = read.end;
      if (read.wantsTarget) redirectTarget = true;
      continue;
    }
    const op = OPERATORS.find((o) => line.startsWith(o, i));
    if (op) {
      i += op.length;
      finish(op);
      if (op === '\n' && pending.length > 0) i = readHeredocs(line, i, pending.splice(0), heredocs);
      continue;
    }
    // A file descriptor number right before a redirection (`2>&1`) belongs to it.
    const fd = /^[0-9]+(?=[<>])/.exec(line.slice(i, i + 12));
    if (fd) {
      i += fd[0].length;
      continue;
    }
    const { word, end } = readWord(line, i, subs);
    // Never the case with the word ends above; should it be, stop rather than loop.
    if (end <= i) throw new ShellParseError(`cannot read the character at ${i}`);
    i = end;
    if (redirectTarget) {
      redirectTarget = false;
    } else if (current.words.length === 0 && ASSIGNMENT.test(word.text)) {
      current.assignments.push(word);
    } else {
      current.words.push(word);
    }
  }
  if (pending.length > 0) throw new ShellParseError('a here-document with no body');
  if (redirectTarget) throw new ShellParseError('a redirection with no target');
  finish('');
  return {
    commands: commands.filter((c) => c.words.length > 0 || c.assignments.length > 0),
    heredocs,
    substitutions: subs,
    operators,
  };
}

/**
 * The rest of a redirection operator that starts at `i`: a here-document's delimiter (its body is
 * read at the next newline), a file descriptor to duplicate (`>&2`), or else a target word to come.
 */
function readRedirection(
  line: string,
  i: number,
  redirection: string,
  pending: { delimiter: string; stripTabs: boolean }[],
  subs: string[],
): { end: number; wantsTarget: boolean } {
  if (redirection === '<<' || redirection === '<<-') {
    while (line[i] === ' ' || line[i] === '\t') i++;
    const start = i;
    const delimiter = readWord(line, i, subs);
    if (delimiter.end === start) throw new ShellParseError('a here-document without a delimiter');
    pending.push({ delimiter: delimiter.word.text, stripTabs: redirection === '<<-' });
    return { end: delimiter.end, wantsTarget: false };
  }
  if ((redirection === '>&' || redirection === '<&') && /[0-9-]/.test(line[i] ?? '')) {
    while (/[0-9-]/.test(line[i] ?? '')) i++;
    return { end: i, wantsTarget: false };
  }
  return { end: i, wantsTarget: true };
}

/** The command words of a simple command: its words after reserved words such as `if`, `do`, `!`. */
export function commandWords(command: SimpleCommand): Word[] {
  let start = 0;
  while (start < command.words.length && RESERVED.has(command.words[start]?.text ?? '')) start++;
  return command.words.slice(start);
}

function readHeredocs(
  line: string,
  i: number,
  docs: { delimiter: string; stripTabs: boolean }[],
  out: string[],
): number {
  for (const doc of docs) {
    const body: string[] = [];
    for (;;) {
      if (i >= line.length) throw new ShellParseError(`here-document '${doc.delimiter}' is not closed`);
      const nl = line.indexOf('\n', i);
      const end = nl === -1 ? line.length : nl;
      const text = line.slice(i, end);
      i = nl === -1 ? line.length : nl + 1;
      if ((doc.stripTabs ? text.replace(/^\t+/, '') : text) === doc.delimiter) break;
      body.push(text);
    }
    out.push(body.join('\n'));
  }
  return i;
}

/**
 * What ends an unquoted word: bash's metacharacters exactly (space, tab, newline, `;&|()<>`).
 * Any other character, a carriage return, \v, \f or a no-break space included, is part of a
 * word, as bash reads it (`echo hi\r` prints `hi` and a carriage return).
 */
const WORD_END = /[ \t\n;&|()<>]/;

/** Reads one word starting at `i`: quotes, escapes and substitutions are part of it. */
function readWord(line: string, i: number, subs: string[]): { word: Word; end: number } {
  const start = i;
  let text = '';
  let dynamic = false;
  while (i < line.length && !WORD_END.test(line[i] as string)) {
    const c = line[i] as string;
    if (c === '\\') {
      if (i + 1 >= line.length) throw new ShellParseError('a backslash at the end');
      if (line[i + 1] !== '\n') text += line[i + 1];
      i += 2;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new ShellParseError('an unterminated single quote');
      text += line.slice(i + 1, close);
      i = close + 1;
    } else if (c === '$' && line[i + 1] === "'") {
      const close = endOfAnsiQuote(line, i + 2);
      text += line.slice(i + 2, close).replace(/\\(.)/g, '$1');
      i = close + 1;
    } else if (c === '"' || (c === '$' && line[i + 1] === '"')) {
      const start = c === '$' ? i + 2 : i + 1;
      const r = readDoubleQuoted(line, start, subs);
      text += r.text;
      dynamic ||= r.dynamic;
      i = r.end + 1;
    } else if (c === '$' || c === '`') {
      const end = endOfExpansion(line, i, subs);
      text += line.slice(i, end);
      dynamic = true;
      i = end;
    } else {
      text += c;
      i++;
    }
  }
  return { word: { text, dynamic, raw: line.slice(start, i) }, end: i };
}

function endOfAnsiQuote(line: string, i: number): number {
  while (i < line.length) {
    if (line[i] === '\\') i += 2;
    else if (line[i] === "'") return i;
    else i++;
  }
  throw new ShellParseError("an unterminated $'...' quote");
}

function readDoubleQuoted(
  line: string,
  i: number,
  subs: string[],
): { text: string; dynamic: boolean; end: number } {
  let text = '';
  let dynamic = false;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '"') return { text, dynamic, end: i };
    if (c === '\\' && /["\\$`\n]/.test(line[i + 1] ?? '')) {
      if (line[i + 1] !== '\n') text += line[i + 1];
      i += 2;
    } else if (c === '$' || c === '`') {
      const end = endOfExpansion(line, i, subs);
      if (end > i + 1) dynamic = true;
      text += line.slice(i, end);
      i = end;
    } else {
      text += c;
      i++;
    }
  }
  throw new ShellParseError('an unterminated double quote');
}

/** The end of an expansion at `i` (`$name`, `${...}`, `$(...)`, `$((...))`, backticks). */
function endOfExpansion(line: string, i: number, subs: string[]): number {
  if (line[i] === '`') {
    for (let j = i + 1; j < line.length; j++) {
      if (line[j] === '\\') j++;
      else if (line[j] === '`') {
        subs.push(line.slice(i + 1, j));
        return j + 1;
      }
    }
    throw new ShellParseError('an unterminated backtick');
  }
  const next = line[i + 1];
  if (next === '(' || next === '{') {
    const end = endOfGroup(line, i + 1, subs);
    if (next === '(' && line[i + 2] !== '(') subs.push(line.slice(i + 2, end - 1));
    return end;
  }
  const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(line.slice(i + 1));
  return i + 1 + (name ? name[0].length : 0);
}

/** The end of a bracketed group starting at `open` (`(` or `{`), with quotes inside respected. */
function endOfGroup(line: string, open: number, subs: string[]): number {
  const closer = line[open] === '(' ? ')' : '}';
  const opener = line[open] as string;
  let depth = 0;
  let i = open;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new ShellParseError('an unterminated single quote');
      i = close + 1;
    } else if (c === '"') i = readDoubleQuoted(line, i + 1, subs).end + 1;
    else if (c === '`' || (c === '$' && (line[i + 1] === '(' || line[i + 1] === '{')))
      i = endOfExpansion(line, i, subs);
    else {
      if (c === opener) depth++;
      else if (c === closer && --depth === 0) return i + 1;
      i++;
    }
  }
  throw new ShellParseError(`an unterminated ${opener === '(' ? '$(' : '${'}`);
}
