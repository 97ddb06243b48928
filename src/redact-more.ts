/**
 * Masking rules found by issue 20's adversarial rounds, in the shape of redact.ts's rules (group
 * 1 kept, group 2 the secret): credential files printed whole (`.pgpass`, `.netrc`), an AWS
 * secret key printed next to its key id (IAM's CSV, `aws configure list`-like dumps), AWS and
 * Google request signatures (a presigned URL is a credential until it expires), and the session
 * cookies of a request's `Cookie:` header. redact.ts places them among its own.
 */
import type { Rule } from './redact.js';

/** The value tests of redact.ts these rules use. */
export interface Judges {
  isOpaque: (value: string) => boolean;
  isRandomValue: (value: string) => boolean;
  isMixed: (value: string) => boolean;
}

// An AWS key id, or its mask: the line holds a key pair.
const HOLDS_KEY_ID =
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])|\[redacted:aws-access-key-id\]/;

export function moreRules(judge: Judges): Rule[] {
  return [
    {
      // ~/.pgpass: host:port:database:user:password, the whole line.
      kind: 'password',
      hint: /^[^:\s]{1,256}:(?:\d{1,5}|\*):[^:\s]{1,256}:[^:\s]{1,256}:\S/,
      re: /^([^:\s]{1,256}:(?:\d{1,5}|\*):[^:\s]{1,256}:[^:\s]{1,256}:)(\S{1,1024})$/g,
      accept: (value) => judge.isOpaque(value) && !/^\d+$/.test(value),
    },
    {
      // ~/.netrc: `machine h login u password p` on one line.
      kind: 'password',
      hint: /\blogin\s/,
      re: /(\blogin\s{1,8}\S{1,256}\s{1,8}(?:password|passwd)\s{1,8})([^\s"']{4,256})/g,
      accept: (value) => judge.isOpaque(value),
    },
    {
      // ~/.netrc over several lines: `password p` alone on its line.
      kind: 'password',
      hint: /^\s*passw(?:or)?d\s/,
      re: /^(\s*passw(?:or)?d\s{1,8})([^\s"']{8,256})\s*$/g,
      accept: (value) => judge.isRandomValue(value),
    },
    {
      // An AWS secret access key on the line of its key id (a CSV of credentials, a dump).
      kind: 'aws-secret-key',
      hint: /AKIA|ASIA|\[redacted:aws-access-key-id\]/,
      re: /(?<![\]A-Za-z0-9/+=])()([A-Za-z0-9/+]{40})(?![[A-Za-z0-9/+=])/g,
      accept: (value, line) =>
        HOLDS_KEY_ID.test(line) && /[a-z]/.test(value) && /[A-Z]/.test(value) && judge.isMixed(value),
    },
    {
      // SigV4: `Signature=` of an AWS4-HMAC-SHA256 header, `X-Amz-Signature=`/`X-Goog-Signature=`
      // of a presigned URL.
      kind: 'request-signature',
      hint: /AWS4-HMAC-SHA256|GOOG4-RSA-SHA256|X-(?:Amz|Goog)-Signature/i,
      re: /((?:X-(?:Amz|Goog)-)?Signature=)([0-9a-f]{64,1024})(?![0-9a-f])/gi,
      accept: (_value, line) => /AWS4-HMAC-SHA256|GOOG4-RSA-SHA256|X-(?:Amz|Goog)-/i.test(line),
    },
    {
      // A request's `Cookie:` header (curl -b, a browser's request): the session cookies in it.
      kind: 'session-cookie',
      hint: /cookie/i,
      re: /((?:cookie:\s{0,8}|;\s{0,8}|\bcurl\b[^\n]{0,256}?\s-b\s{1,8}["']?)[^=;\s"']{0,64}(?:sess|sid|token|auth|jwt|remember|login)[^=;\s"']{0,64}=)([^;\s"']{8,4096})/gi,
      accept: (value, line) => /cookie\s{0,8}:|\bcurl\b/i.test(line) && judge.isOpaque(value),
    },
  ];
}
