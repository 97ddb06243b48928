// Throughput of secret masking (src/redact.ts) line by line, against cleanLine (which every printed
// line already goes through) on the same lines. Runs in-process on 50 MB of generated log text:
// `node bench/run.mjs redact`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, ROOT } from '../lib.mjs';

export const title = 'secret masking throughput (50 MB of log lines, in-process)';

const SIZE = 50 * 1024 * 1024;
const RUNS = 5;

/** Bundles a source module to .bench-tmp (the library build does not export it) and imports it. */
async function load(entry, name) {
  const dir = join(ROOT, '.bench-tmp');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

function generator(seed) {
  let x = seed;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const int = (n) => Math.floor(rnd() * n);
  const chars = (n, alphabet) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  const hex = (n) => chars(n, '0123456789abcdef');
  const alnum = (n) => chars(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
  return { int, hex, alnum };
}

/** Lines like a build, a test run and a service log; one line in 1000 holds a (fake) secret. */
function logLines(bytes) {
  const { int, hex, alnum } = generator(7);
  const plain = [
    () =>
      `2024-05-01T12:${String(int(60)).padStart(2, '0')}:00.123Z INFO  [worker-${int(8)}] processed job ${hex(8)} in ${int(900)}ms`,
    () => `    at Object.<anonymous> (/home/dev/project/src/module${int(50)}.ts:${int(300)}:${int(40)})`,
    () => `npm http fetch GET 200 https://registry.npmjs.org/pkg-${hex(4)} ${int(100)}ms (cache revalidated)`,
    () => ` ✓ test/unit/feature-${int(100)}.test.ts (${int(40)} tests) ${int(200)}ms`,
    () => `commit ${hex(40)}`,
    () =>
      `{"level":"debug","msg":"request","path":"/api/v1/items/${hex(6)}","status":200,"request_id":"${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}"}`,
    () => `src/components/Widget${int(20)}.tsx:${int(200)}:5 - warning: 'props' is defined but never used`,
    () =>
      `Downloading https://files.pythonhosted.org/packages/${hex(2)}/${hex(2)}/${hex(60)}/pkg-1.2.3-py3-none-any.whl (${int(900)} kB)`,
    () => `#${int(20)} [build 3/7] RUN npm ci --omit=dev`,
    () => '',
    () => `  "integrity": "sha512-${Buffer.from(hex(64), 'hex').toString('base64')}",`,
    () => 'FAIL  test/e2e/run.test.ts > run > keeps the exit code of a failing command',
    () => `error[E0308]: mismatched types --> src/main.rs:${int(99)}:17 expected \`u32\`, found \`i64\``,
    () => `  File "/usr/lib/python3.11/site-packages/requests/adapters.py", line ${int(700)}, in send`,
    () => `usage: prompt_tokens=${int(9000)} completion_tokens=${int(900)} total_tokens=${int(9900)}`,
  ];
  const secrets = [
    () => `export GITHUB_TOKEN=${'ghp'}_${alnum(36)}`,
    () => `DB_PASSWORD=Xk9${alnum(12)}`,
    () => `postgres://app:S3cret${hex(4)}@db/app`,
    () => `Authorization: Bearer ${alnum(40)}`,
  ];
  return fill(bytes, (n) => (n % 1000 === 0 ? secrets[int(secrets.length)] : plain[int(plain.length)])());
}

/** Every line passes the prefilter (URLs with a user, tokens, keys): the slow path throughout. */
function hintLines(bytes) {
  const { int, hex, alnum } = generator(11);
  const lines = [
    () => `fetch https://ci@git.example.com:443/acme/app.git token_count=${int(900)}`,
    () => `"max_tokens": ${int(4096)}, "api_key": "<your key>", "model": "example-${int(9)}"`,
    () => `WWW-Authenticate: Bearer realm="api", error="invalid_token" id=${hex(12)}`,
    () => `secret rotation scheduled for key ${hex(16)} (password policy v${int(9)})`,
    () => `session=${alnum(8)} sk-spinner-${int(9)} task-runner eyJ-like ${hex(8)}`,
  ];
  return fill(bytes, () => lines[int(lines.length)]());
}

function fill(bytes, next) {
  const lines = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const line = next(n);
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return { lines, mb: size / 1024 / 1024 };
}

function time(fn) {
  fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

export async function run() {
  const { Redactor } = await load('src/redact.ts', 'redact');
  const { cleanLine } = await load('src/summary/clean.ts', 'clean');
  const rows = [];
  for (const [name, { lines, mb }] of [
    ['redact per line, log text', logLines(SIZE)],
    ['redact per line, every line a hint', hintLines(SIZE)],
  ]) {
    let sink = 0;
    const redactMs = time(() => {
      const r = new Redactor();
      for (const line of lines) sink += r.line(line).length;
    });
    const cleanMs = time(() => {
      for (const line of lines) sink += cleanLine(line).length;
    });
    if (sink === 0) throw new Error('nothing measured');
    rows.push({
      benchmark: name,
      subject: `${(mb / (redactMs / 1000)).toFixed(0)} MB/s`,
      baseline: `${(mb / (cleanMs / 1000)).toFixed(0)} MB/s (cleanLine)`,
      ratio: (redactMs / cleanMs).toFixed(2),
      note: `${mb.toFixed(0)} MB, ${lines.length} lines, median of ${RUNS}`,
    });
  }
  return rows;
}
