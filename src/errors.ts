/** Exit status of ctxwrap's own usage errors (bad option, bad spec, bad id). */
export const EXIT_USAGE = 2;
/** Exit status when a ctxwrap command other than run fails (unknown id, unreadable store). */
export const EXIT_FAILURE = 1;

import { showControls } from './controls.js';

/** Input quoted in a message: controls shown, cut to `max` characters. */
export function quoted(text: string, max = 60): string {
  return showControls(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * An expected failure: printed once by the CLI as `ctxwrap: <message>` on stderr, no stack
 * trace, and the process exits with `exitCode`. The message is always one printable line.
 */
export class CtxwrapError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    // One printable line, whatever input the message quotes.
    super(showControls(message));
    this.name = 'CtxwrapError';
  }
}
