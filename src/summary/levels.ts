/**
 * A log level in capitals inside a line: `[2026-11-26 02:19:00,124] ERROR in app: …`,
 * `… UTC [20442] app@db ERROR:  new row …`, and an error written into the middle of another
 * stream's line when stdout and stderr share a pipe (`    (1992, N'LERROR 1062 (23000) at line
 * 1884: Duplicate …`). A level in capitals is a logger's or a tool's mark, not prose nor a name:
 * it says what went wrong as an error at the start of a line does, whether or not the run
 * succeeded. The word may follow any text but a lower-case letter, a digit or a joiner (an
 * identifier `on_ERROR`, a file `ERROR.md`, a flag `-ERROR`); a message follows it (a colon, a
 * bracket, a code, a lower-case word), not a heading (`ERROR SUMMARY: 0 errors`).
 */
const LEVEL_MARK =
  /(?<![a-z\d_./\\-])(?:ERROR|FATAL|CRITICAL|PANIC|EMERG|ALERT)(?::(?![\w/\\])|\]|\s+(?:\d|\(|[a-z]))/;

/**
 * A field of data whose name says error, with a value (`"Err": "no required module provides
 * package …"`, `"DepsErrors": [`, `"error": {`): not `null`, empty, `0` or `false`.
 */
const ERROR_FIELD =
  /^\s*"(?:\w*(?:Err|Error|Errors)|err|errors?)"\s*:\s*(?!null\b|\[\s*\]|\{\s*\}|""|0\b|false\b)\S/;

/**
 * A program's diagnostic: its name, then an error word as the first word of its message
 * (`jq: error (at x.json:35): …`, `clang: error: linker command failed`, `collect2: error: ld
 * returned 1 exit status`), not a setting's value (`log_level: error`).
 */
const DIAGNOSTIC = /^\s*[\w.+-]{1,24}(?:\[\d+\])?: (?:error|fatal error|fatal|panic)(?::|\s+\(|\s+[a-z])/;

/**
 * A server error answered to a request: an HTTP status 5xx right after the request's protocol
 * (`"POST /2/update HTTP/1.1" 500 265`, `GET /x => generated 0 bytes … (HTTP/1.1 500)`) or in a
 * status field (`"statusCode":500`, `status=503`). Among the 200s and 404s of an access log it is
 * the request that failed; a 404 is an answer, not a failure of the server.
 */
const SERVER_ERROR = /\bHTTP\/\d(?:\.\d)?"? 5\d\d\b|"?\bstatus(?:Code|_code)?"?\s*[:=]\s*5\d\d\b/;

/** Whether a line carries a log level of an error in capitals, with a message after it, or an error field. */
export function hasLevelMark(line: string): boolean {
  return (
    LEVEL_MARK.test(line) ||
    (line.includes('rr') && ERROR_FIELD.test(line)) ||
    DIAGNOSTIC.test(line) ||
    (line.includes('5') && SERVER_ERROR.test(line))
  );
}

/** Where the level mark starts in a line, or -1: what a line cut to fit shows. */
export function levelMarkAt(line: string): number {
  const m = LEVEL_MARK.exec(line);
  return m ? m.index : -1;
}
