/**
 * The environment for a node process of ctxwrap's own that runs bin/ctxwrap.js (the MCP server
 * runs each command that way): NODE_EXTRA_CA_CERTS moved aside as the launcher's sh lines do,
 * so that Node 20 does not parse a CA bundle at start; bin/ctxwrap.js puts it back before
 * anything runs, and the wrapped command gets it as it was.
 */
export function ownNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const ca = env.NODE_EXTRA_CA_CERTS;
  if (ca === undefined) return env;
  const { NODE_EXTRA_CA_CERTS: _, ...rest } = env;
  return { ...rest, CTXWRAP_SAVED_NODE_EXTRA_CA_CERTS: ca };
}
