/** How the CLI ends: one line for an error, then exit once stdout has drained. */
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';
import { showControls } from '../summary/clean.js';

/** ctxwrap's own message on stderr: always one printable line, whatever it quotes. */
export const warn = (text: string) => {
  process.stderr.write(`ctxwrap: ${showControls(text)}\n`);
};

/** Prints an expected error once (a stack trace only with DEBUG) and gives the exit status. */
export function reportError(error: unknown): number {
  if (error instanceof CtxwrapError) {
    warn(error.message);
    return error.exitCode;
  }
  const e = error as Error;
  warn(
    `internal error: ${e?.message ?? String(error)}${process.env.DEBUG ? `\n${e?.stack ?? ''}` : ' (set DEBUG=1 for details)'}`,
  );
  return EXIT_FAILURE;
}

/**
 * Nowhere to print (a reader gone: `ctxwrap ... | head`; a full disk or a file size limit under
 * a redirection) must not stop the run: the output is still stored and the exit status still
 * returned. There is no one to tell either, so the error goes no further.
 */
export function ignoreOutputErrors(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}

/** Exits once stdout has drained, so a summary is never cut off (and EPIPE never crashes). */
export function finish(code: number): void {
  if (process.stdout.writableLength === 0) process.exit(code);
  process.stdout.write('', () => process.exit(code));
}
