/**
 * Lines that echo the source under a finding: a compiler's code frame, a line number and a bar
 * before the source line (`1027 | prop_x = verify "test 2>&1"`, `  93 | severity "error" =`),
 * or the bar alone with the marks under it (`     | ^^^^^`). What they say is the program's
 * own text, not what went wrong: a word there (`fail`, `error`, `test 2`) is a name in the
 * source, and gives the line no severity. A block brings them where they explain (see blocks.ts).
 * A report's columns (`216 | ERROR | [ ] message`) are no source: a level word alone between
 * two bars is the tool's.
 */
const SOURCE_ECHO = /^\s*\d+\s+\|(?:\s|$)(?!\s*[A-Z]{3,}\s+\|)/;

/** Whether a line is a line of source echoed in a code frame. */
export const isSourceEcho = (line: string): boolean => SOURCE_ECHO.test(line);
