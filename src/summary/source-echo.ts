/**
 * Lines that echo the source under a finding: a compiler's code frame, a line number and a bar
 * before the source line (`1027 | prop_x = verify "test 2>&1"`, `  93 | severity "error" =`),
 * or the bar alone with the marks under it (`     | ^^^^^`). What they say is the program's own text, not what went wrong: a word there
 * (`fail`, `error`, `test 2`) is a name in the source, and gives the line no severity. A block
 * brings them where they explain (see blocks.ts), and the echo of the very line a location
 * above an error points at (see place-above.ts). A report's columns
 * (`216 | ERROR | [ ] message`) are no source: a level word alone between two bars is the tool's.
 */
const SOURCE_ECHO = /^\s*(\d+)\s+\|(?:\s|$)(?!\s*[A-Z]{3,}\s+\|)/;

/** Whether a line is a line of source echoed in a code frame. */
export const isSourceEcho = (line: string): boolean => SOURCE_ECHO.test(line);

/** The number of the source line a code frame's line echoes, or undefined. */
export function echoedLine(line: string): number | undefined {
  const m = SOURCE_ECHO.exec(line);
  return m ? Number(m[1]) : undefined;
}

/** The line number of a finding's own location (`src/de.rs:528:30`, `src/t.F90:52:13:`), or undefined. */
export function pointedLine(text: string): number | undefined {
  const m = POINTS_AT.exec(text);
  return m ? Number(m[1]) : undefined;
}

const POINTS_AT = /[\w./\\-]\.[A-Za-z]\w{0,5}:(\d+)(?::\d+)?(?![\d.])/;

/**
 * A caret line: marks under the source line above it, pointing at a column (`      |   ^~~~~~`,
 * `%     | \t    ^`, `    |     ^^^^ help: …`, `        ^`). Compilers, parsers and linters of
 * many kinds (gcc and clang, rustc, ghc, erlc, javac, xmllint, Python's SyntaxError) echo the
 * offending source line this way, with or without its number: the line above it is what the
 * finding is about.
 */
const CARET = /^[\s%#]*(?:\d*\s*\|\s*)?[\^~]+(?:\.{3})?(?:\s+\S.*)?$/;

/** Whether a line is a caret line (see CARET): only its marks, after a bar or a margin. */
export const isCaretLine = (line: string): boolean => CARET.test(line);
