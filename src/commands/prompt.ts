/** `ctxwrap prompt`: print the trusted instructions snippet for a system prompt or CLAUDE.md. */
import { CtxwrapError } from '../errors.js';
import { PROMPT_FORMATS, type PromptFormat, promptText } from '../prompt-text.js';

export interface PromptOptions {
  /** `markdown` (default) or `plain`. */
  format?: string;
  print: (text: string) => void;
}

export function printPrompt(opts: PromptOptions): number {
  const format = opts.format ?? 'markdown';
  if (!(PROMPT_FORMATS as readonly string[]).includes(format)) {
    throw new CtxwrapError(`--format takes ${PROMPT_FORMATS.join(' or ')} (got '${format}')`);
  }
  opts.print(promptText(format as PromptFormat));
  return 0;
}
