/**
 * PEM private-key blocks (and PuTTY's private lines), followed one line at a time: where a block
 * begins and ends, and the line with its key parts masked. Used by redact.ts to mask keys printed
 * over many lines, and by the summary to never show a line of one.
 */

import { mask } from './secret-kinds.js';

const BEGIN_KEY = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END_KEY = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// What may follow a BEGIN line's marker when a key follows: nothing, or the start of the base64
// (with `\n` escapes when the key is a JSON or code string, the last perhaps cut after its `\`
// by a wrap), and a closing quote. Anything else,
// such as prose, makes it a mention of the marker rather than a key.
const KEY_START = /^(?:\\[rn]|[A-Za-z0-9+/=])*\\?["'`]{0,3}\s*[,+;)]?\s*$/;
// Between BEGIN and END on one line: base64, escapes, spaces, quotes, and some base64 at least.
const KEY_BETWEEN = /^(?:\\[rn]|[A-Za-z0-9+/=\s"'`,+])*$/;

function isKeyBetween(text: string): boolean {
  return KEY_BETWEEN.test(text) && /[A-Za-z0-9+/]{4}/.test(text);
}

// A line inside a PEM block: base64 (possibly quoted, escaped or concatenated in code) or one of
// the headers of encrypted PEM and of PGP armour.
const KEY_BODY =
  /^\s*["']?[A-Za-z0-9+/=]*(?:\\n)?["']?\s*[,+]?\s*$|^\s*(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset): /;

/** Keeps a line's indentation and its `\r`, masks the rest: a line inside a private-key block. */
function maskKeyLine(line: string): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  return indent + mask('private-key') + (line.endsWith('\r') ? '\r' : '');
}

/** What one line does to PEM private-key blocks, given whether a block was open before it. */
export interface KeyStep {
  /** The line with its private-key parts masked (other secrets are left to the caller). */
  text: string;
  /** The line is part of the block open before it (a line of the key, or its END line). */
  continues: boolean;
  /** The line opens a block that is still open after it (a key spread over several lines). */
  opens: boolean;
  /** A block is open after the line: the next line may be part of a key. */
  open: boolean;
  /** Keys that start on this line (a BEGIN marker followed by a key, closed or not). */
  keys: number;
}

/** True when a line may touch a key block: one is open, or the line holds a BEGIN marker. */
export function mayTouchKey(line: string, open: boolean): boolean {
  return open || line.includes('-----BEGIN ') || line.includes('Private-Lines:');
}

// A private-key marker whole, and the start of one (BEGIN or END) short of its last dash.
const MARKER = /-----(BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const MARKER_START =
  /-----(?:(B(?:E(?:G(?:I(?:N(?: [A-Z0-9 -]{0,50})?)?)?)?)?)|E(?:N(?:D(?: [A-Z0-9 -]{0,50})?)?)?)$/;
// A start that names a public block (a certificate, a public key, a signature) is not one.
const PUBLIC_PART = /CERT|PUB|SIGN|MESS|CRL|PARAM|REQ|PKCS7|CMS/;

/** A private-key marker cut over lines: BEGIN or END, and how many lines before it starts. */
export interface CutMarker {
  kind: 'begin' | 'end';
  back: number;
}

/**
 * A private-key marker cut over lines (an output folded, or wrapped at a terminal's width), found
 * in `line` joined to the lines before it (`before`, the nearest last; their ends are enough): a
 * whole marker that ends in `line` and began before it, or the start of one that `line` ends
 * (begun in it or before, short of its last dash).
 */
export function cutMarkerAt(before: readonly string[], line: string): CutMarker | undefined {
  const parts = [...before, line].map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const starts: number[] = [];
  let joined = '';
  for (const p of parts) {
    starts.push(joined.length);
    joined += p;
  }
  const at = starts.at(-1) as number;
  if (joined.length === at) return undefined;
  const back = (i: number) => parts.length - 1 - starts.findLastIndex((s) => s <= i);
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(joined); m; m = MARKER.exec(joined))
    if (m.index < at && m.index + m[0].length > at)
      return { kind: m[1] === 'BEGIN' ? 'begin' : 'end', back: back(m.index) };
  const start = MARKER_START.exec(joined);
  if (!start || start[0].endsWith('-----') || PUBLIC_PART.test(start[0])) return undefined;
  return { kind: start[1] === undefined ? 'end' : 'begin', back: back(start.index) };
}

// The header of the private part of a PuTTY key file (.ppk): the base64 lines after it are the key.
const PUTTY_PRIVATE = /^\s*Private-Lines:\s*(\d{1,4})\s*$/;

/** How many lines of a PuTTY key's private part follow `line`, when it is their header. */
export function puttyPrivateLines(line: string): number | undefined {
  const m = PUTTY_PRIVATE.exec(line);
  return m ? Number(m[1]) : undefined;
}

/**
 * Follows PEM private-key blocks through one line, reading every BEGIN and END marker on it in
 * order: a line holding a BEGIN and its END closes its own block (a key in a JSON or code string,
 * a GCP service-account file), and text after an END is read for further markers. A BEGIN
 * followed by prose rather than base64 is a mention of the marker, not a key. Inside a block,
 * the first line that cannot belong to a key (not base64, a PEM header, blank or the END line)
 * ends it, so that a truncated key does not swallow the lines after it.
 * Pure: the caller keeps `open` from one line to the next.
 */
export function keyBlockStep(line: string, openBefore: boolean): KeyStep {
  let out = '';
  let rest = line;
  let continues = false;
  let keys = 0;
  if (!openBefore && PUTTY_PRIVATE.test(line))
    return { text: line, continues, opens: true, open: true, keys: 1 };
  if (openBefore) {
    END_KEY.lastIndex = 0;
    const end = END_KEY.exec(rest);
    const body = end ? rest.slice(0, end.index) : rest;
    const blank = body.trim() === '';
    const inside = blank || KEY_BODY.test(body);
    if (inside && !end)
      return { text: blank ? rest : maskKeyLine(rest), continues: true, opens: false, open: true, keys };
    // The END line, or a line that cannot be part of the key: the block is over.
    if (inside && end) {
      continues = true;
      out = maskKeyLine(body);
      rest = rest.slice(end.index + end[0].length);
    }
  }
  // Offsets into `rest`; the first END after a point is looked up once, not once per BEGIN.
  let from = 0;
  let end: RegExpExecArray | null = null;
  let endKnown = false;
  for (;;) {
    BEGIN_KEY.lastIndex = from;
    const begin = BEGIN_KEY.exec(rest);
    if (!begin) return { text: out + rest.slice(from), continues, opens: false, open: false, keys };
    const afterAt = begin.index + begin[0].length;
    if (!endKnown || (end && end.index < afterAt)) {
      END_KEY.lastIndex = afterAt;
      end = END_KEY.exec(rest);
      endKnown = true;
    }
    const key = end ? isKeyBetween(rest.slice(afterAt, end.index)) : KEY_START.test(rest.slice(afterAt));
    if (!key) {
      // A mention of the markers (in prose or code), not a key.
      out += rest.slice(from, afterAt);
      from = afterAt;
      continue;
    }
    keys++;
    out += rest.slice(from, begin.index) + mask('private-key');
    if (!end) {
      const text = out + (line.endsWith('\r') ? '\r' : '');
      return { text, continues, opens: true, open: true, keys };
    }
    from = end.index + end[0].length;
  }
}
