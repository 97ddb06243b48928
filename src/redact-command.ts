/**
 * Masking of the secrets in command lines (for `list`, `stats`, `clean --dry-run`, search hit
 * headers) and in the `set -x` traces of command lines in output: credential-named variables
 * and options, `mysql -p…`, `sshpass -p`, `curl -u user:password`, on top of `redact`.
 */
import { isPlaceholder, redact, redactLine } from './redact.js';
import { mask, type SecretKind } from './secret-kinds.js';

// Names of environment variables and shell assignments that hold a credential: MYSQL_PWD,
// PGPASSWORD, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, NPM_AUTH, DB_CREDENTIALS, ...
const SECRET_NAME =
  '(?:[A-Za-z_][A-Za-z0-9_]*?)?(?:PWD|PASS|PASSWD|PASSWORD|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH|CREDENTIALS?|COOKIE|SESSION)[A-Za-z0-9_]*';
// Names about a credential that do not hold one: TOKEN_COUNT=5, PASSWORD_FILE=/run/secrets/db.
const NOT_A_SECRET_NAME =
  /[_-](?:count|limit|max|min|timeout|ttl|size|len|length|type|file|path|dir|name|id|url|endpoint|header|expiry|expires|env|var)=$/i;
// A value on a command line: quoted, or up to the next space or shell operator.
const ARG_VALUE = String.raw`(?:'[^']*'?|"(?:[^"\\]|\\.)*"?|[^\s;&|<>()'"]+)`;
const SECRET_ASSIGNMENT = new RegExp(String.raw`(?<![\w$-])(${SECRET_NAME}=)(${ARG_VALUE})`, 'gi');
// Options that take a credential: --password=x, --password x, --token x, --api-key=x, ...
const SECRET_FLAG_NAME =
  '--?(?:[a-z]+-)*(?:password|passwd|pass|passphrase|token|secret|api-?key|access-?key|auth(?:-?token)?|client-?secret|private-?key|cookie)';
const SECRET_FLAG = new RegExp(String.raw`(?<![\w-])(${SECRET_FLAG_NAME}(?:=|\s+))(${ARG_VALUE})`, 'gi');
const SECRET_FLAG_ALONE = new RegExp(`^${SECRET_FLAG_NAME}$`, 'i');
// Programs whose -p takes the password glued to it (mysql -pS3cr3t) or as the next word (sshpass -p x).
const GLUED_P = /(?<![\w-])((?:mysql\w*|mariadb[\w-]*)\b[^;&|\n]*?\s-p)([^\s;&|]+)/gi;
const SEPARATE_P =
  /(?<![\w-])((?:sshpass|(?:docker|podman|buildah|nerdctl|oras)\s+login\b[^;&|\n]*?)\s-p\s*)([^\s;&|]+)/gi;
// redis-cli -a password; openssl -passin pass:password; vault and PyPI tokens.
const OTHER_PASSWORDS = /(?<![\w-])((?:redis-cli\b[^;&|\n]*?\s-a\s*|-pass(?:in|out)\s+pass:))([^\s;&|]+)/g;
const COMMAND_TOKENS =
  /(?<![\w.-])()(hv[sbr]\.[A-Za-z0-9_-]{24,}|s\.[A-Za-z0-9]{24}|pypi-Ag[A-Za-z0-9_-]{40,})(?![\w-])/g;
// curl -u user:password, --user user:password (a password after the colon).
const USER_PASSWORD = /(?<![\w-])((?:-[A-Za-z]*u|--user|--proxy-user)\s*=?\s*["']?[^\s:"']+:)([^\s"']+)/g;

/** The kind of secret a variable or option of this name holds. */
function kindOfName(name: string): SecretKind {
  if (/pwd|pass/i.test(name)) return 'password';
  if (/token|auth|session|cookie/i.test(name)) return 'token';
  if (/key/i.test(name)) return 'api-key';
  return 'secret';
}

/** True for a value that names a secret instead of holding one: `$TOKEN`, `"${PASS}"`, `$(cat f)`, ''. */
function isReference(value: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '');
  return bare === '' || /^\$/.test(bare) || isPlaceholder(bare);
}

/**
 * Masks the secrets in a command line (as typed, or a `-c` script) for `list`, `stats`,
 * `clean --dry-run` and search hit headers: everything `redactLine` masks, plus the values of
 * variables whose names say they hold a credential (`MYSQL_PWD=…`, `GH_TOKEN=…`), of options
 * that take one (`--password x`, `--token=x`), `mysql -p<password>`, `sshpass -p`, `curl -u
 * user:password`. A value split by a backslash-newline is joined first, so that no half of
 * it shows.
 */
export function maskCommandLine(text: string): string {
  const joined = text
    // A quoted string continued on the next line ('abc'\<newline>'def') and plain continuations.
    .replace(/(['"])\\\r?\n[ \t]*\1/g, '')
    .replace(/\\\r?\n[ \t]*/g, '')
    // A token cut by a newline: masked whole when the two halves together make one.
    .replace(/([\w+/=.-]{4,})\r?\n([\w+/=.-]{4,})/g, (whole, a: string, b: string) => {
      const both = redactLine(a + b);
      return both.includes('[redacted:') ? both : whole;
    });
  return redact(maskCommandWords(joined));
}

/** The masks of `maskCommandLine` that only a command line needs (not the output formats). */
function maskCommandWords(text: string): string {
  return text
    .replace(SECRET_ASSIGNMENT, (whole, name: string, value: string) =>
      isReference(value) || NOT_A_SECRET_NAME.test(name) ? whole : name + mask(kindOfName(name)),
    )
    .replace(SECRET_FLAG, (whole, flag: string, value: string) =>
      isReference(value) || /^-/.test(value) ? whole : flag + mask(kindOfName(flag)),
    )
    .replace(GLUED_P, (whole, before: string, value: string) =>
      value.startsWith('[redacted:') ? whole : before + mask('password'),
    )
    .replace(SEPARATE_P, (whole, before: string, value: string) =>
      isReference(value) ? whole : before + mask('password'),
    )
    .replace(OTHER_PASSWORDS, (whole, before: string, value: string) =>
      isReference(value) ? whole : before + mask('password'),
    )
    .replace(COMMAND_TOKENS, (_whole, before: string) => before + mask('token'))
    .replace(USER_PASSWORD, (whole, before: string, value: string) =>
      isReference(value) || value.startsWith('[redacted:') ? whole : before + mask('password'),
    );
}

// A line of a shell's `set -x` trace: PS4's default `+ ` (one `+` per level of nesting), or the
// common PS4s with the script and line, `+(deploy.sh:12): ` and `+deploy.sh:12: `.
const TRACE = /^\++(?: |\([^)\n]{0,200}\): |[^\s:]{1,200}:\d{1,9}: )/;

/**
 * Masks a line of output (already through `redactLine`) that is a shell's `set -x` trace of a
 * command line as `maskCommandLine` masks that command line: `+ MYSQL_PWD=…`, `+ mysql -p…`.
 * Other lines come back as they are, after one test.
 */
export function maskTraceLine(line: string): string {
  return TRACE.test(line) ? maskCommandWords(line) : line;
}

/**
 * Masks the secrets in a command's argv (as `list --json` gives it): each argument as
 * `maskCommandLine` would, and the argument after an option that takes a credential
 * (`--password`, `-p` of sshpass).
 */
export function maskArgv(argv: readonly string[]): string[] {
  // Once a program whose -p takes a password has been named (sh -c … mysql -pX counts too).
  let glued = false;
  let separate = false;
  return argv.map((arg, i) => {
    const program = arg.replace(/^.*\//, '');
    const before = i > 0 ? (argv[i - 1] as string) : '';
    if (SECRET_FLAG_ALONE.test(before) && !arg.startsWith('-')) return mask(kindOfName(before));
    if (separate && before === '-p') return mask('password');
    if (glued && /^-p.+/.test(arg)) return `-p${mask('password')}`;
    glued ||= /^(?:mysql\w*|mariadb[\w-]*)$/i.test(program);
    separate ||= /^(?:sshpass|login)$/.test(program);
    return maskCommandLine(arg);
  });
}
