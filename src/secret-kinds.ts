/** The kinds of secret ctxwrap masks, and the mask that stands for each. */

/** The kinds of secret, as they appear in `[redacted:<kind>]` (gitleaks' rules add their ids). */
export const SECRET_KINDS = [
  'private-key',
  'aws-access-key-id',
  'aws-secret-key',
  'aws-session-token',
  'gcp-api-key',
  'gcp-oauth',
  'azure-key',
  'azure-sas',
  'github-token',
  'gitlab-token',
  'slack-token',
  'slack-webhook',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  'npm-token',
  'vault-token',
  'docker-auth',
  'session-cookie',
  'request-signature',
  'jwt',
  'bearer-token',
  'basic-auth',
  'url-password',
  'password',
  'secret',
  'token',
  'api-key',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/** The text that replaces a secret of the given kind (or of a gitleaks rule, by its id). */
export function mask(kind: SecretKind | string): string {
  return `[redacted:${kind}]`;
}
