/** Quotes a string for any POSIX shell: single quotes, with each `'` written as `'\''`. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
