/** Exit status of ctxwrap's own usage errors (bad option, bad spec, bad id). */
export const EXIT_USAGE = 2;
/** Exit status when a ctxwrap command other than run fails (unknown id, unreadable store). */
export const EXIT_FAILURE = 1;

/**
 * An expected failure: printed once by the CLI as `ctxwrap: <message>` on stderr, no stack
 * trace, and the process exits with `exitCode`.
 */
export class CtxwrapError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = 'CtxwrapError';
  }
}
