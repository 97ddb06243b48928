/**
 * Appends one line to a file someone else owns (Claude Code's CLAUDE_ENV_FILE): on a line of its
 * own even when the file's last line has no newline, and only to a regular file, opened without
 * blocking (a FIFO with no reader would hold the caller forever).
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** Appends `line` (ending in `\n`) to `file`; false when `file` is not a regular file. */
export function appendLine(file: string, line: string): boolean {
  const fd = openSync(
    file,
    constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY,
    0o600,
  );
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return false;
    let text = line;
    if (st.size > 0) {
      const last = Buffer.alloc(1);
      if (readSync(fd, last, 0, 1, st.size - 1) === 1 && last[0] !== 0x0a) text = `\n${line}`;
    }
    writeSync(fd, text);
    return true;
  } finally {
    closeSync(fd);
  }
}
