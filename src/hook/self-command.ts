import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { shellQuote } from './quote.js';

/** How the agent's shell can call this ctxwrap: `ctxwrap` when that is on PATH, else its path. */
export function selfCommand(scriptPath: string, env: NodeJS.ProcessEnv): string {
  let self: string;
  try {
    self = realpathSync(scriptPath);
  } catch {
    return 'ctxwrap';
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      const candidate = join(dir, 'ctxwrap');
      if (statSync(candidate).isFile() && realpathSync(candidate) === self) return 'ctxwrap';
    } catch {
      /* not there */
    }
  }
  return shellQuote(self);
}
