/**
 * Reading a search engine's matches as it prints them (engine.ts): grep's `name:line:offset:match`
 * per line, or ripgrep's `--heading` form, where the name is printed once on a line of its own
 * before its output's matches (`line:offset:match`), a blank line between outputs: half the bytes
 * of a common word's tens of thousands of matches, and no name to compare on every line.
 */

/** True when `x` is at `buf[a...]`, before `end`. */
function startsWith(buf: Buffer, a: number, end: number, x: Buffer): boolean {
  if (a + x.length > end) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== buf[a + i]) return false;
  return true;
}

/**
 * The match lines of ripgrep's form, `line:offset:match\n`, of output `file` from `buf[start...]`
 * on, in one loop (most lines are these: a common word has 10^5, and a call or two per line cost
 * more than the parse): the index of the first line that is not one (a blank line, a name) or not
 * whole.
 */
function matchLines(
  buf: Buffer,
  start: number,
  end: number,
  forms: { bytes: Buffer; word: number }[],
  file: number,
  found: (file: number, word: number, offset: number, line: number) => void,
): number {
  while (start < end) {
    let i = start;
    let x = buf[i];
    let n = 0;
    while (x !== undefined && x >= 48 && x <= 57) {
      n = n * 10 + x - 48;
      x = buf[++i];
    }
    if (x !== 58 || i === start) return start;
    const o = ++i;
    x = buf[i];
    let offset = 0;
    while (x !== undefined && x >= 48 && x <= 57) {
      offset = offset * 10 + x - 48;
      x = buf[++i];
    }
    if (x !== 58 || i === o) return start;
    const m = ++i;
    // The match is the form whose bytes are followed by the newline (no search for the newline:
    // a call of Buffer.indexOf per line cost more than these few compares, cold).
    let e = -1;
    for (let f = 0; f < forms.length; f++) {
      const bytes = forms[f]!.bytes;
      const at = m + bytes.length;
      if (at >= end || buf[at] !== 10) continue;
      let k = 0;
      while (k < bytes.length && bytes[k] === buf[m + k]) k++;
      if (k === bytes.length) {
        found(file, forms[f]!.word, offset, n);
        e = at;
        break;
      }
    }
    // Not a form (grep's match in another mix of case): the line is passed over.
    if (e === -1) {
      e = m;
      while (e < end && buf[e] !== 10) e++;
      if (e === end) return start;
    }
    start = e + 1;
  }
  return start;
}

/**
 * A reader of the engine's output over the outputs `names[i]` for i in `group` (grep reports
 * them in that order, ripgrep's threads in any): works on the bytes as they come, with no string
 * made per match. `heading`: the ripgrep form (see the module's comment).
 */
export function grepParser(
  names: string[],
  group: number[],
  forms: { bytes: Buffer; word: number }[],
  found: (file: number, word: number, offset: number, line: number) => void,
  heading = false,
): (chunk: Buffer) => void {
  const named = group.map((i) => Buffer.from(heading ? names[i]! : `${names[i]!}:`, 'latin1'));
  // The output whose matches these are: in the heading form, none before the first name.
  let at = heading ? -1 : 0;
  let current = !heading;
  let expectName = heading;
  let rest: Buffer | undefined;
  // ripgrep's outputs by name (its threads print each output's matches together, outputs in any order).
  const byName = heading ? new Map(named.map((b, k) => [b.toString('latin1'), k])) : undefined;
  /** The output named by the line `buf[start, nl)` (a name has no `:`). */
  const heads = (buf: Buffer, start: number, nl: number) => {
    const k = byName!.get(buf.toString('latin1', start, nl));
    current = k !== undefined;
    if (current) at = k!;
  };
  // One line, `buf[start, nl)`: a name (of the current output or a later one's), then the two
  // numbers are read where they must be, and the match compared with the forms.
  const line = (buf: Buffer, start: number, nl: number) => {
    let i = start;
    if (heading) {
      // A name comes first, and after each blank line (a match is never blank).
      if (nl === start) {
        expectName = true;
        return;
      }
      if (expectName) {
        expectName = false;
        heads(buf, start, nl);
        return;
      }
      if (!current) return;
    } else {
      if (!startsWith(buf, start, nl, named[at]!)) {
        let next = at + 1;
        while (next < named.length && !startsWith(buf, start, nl, named[next]!)) next++;
        if (next === named.length) return;
        at = next;
      }
      i += named[at]!.length;
    }
    let n = 0;
    for (let x = buf[i++]!; x !== 58; x = buf[i++]!) {
      if (i > nl) return;
      n = n * 10 + x - 48;
    }
    let offset = 0;
    for (let x = buf[i++]!; x !== 58; x = buf[i++]!) {
      if (i > nl) return;
      offset = offset * 10 + x - 48;
    }
    report(buf, i, nl, offset, n);
  };
  /** Reports the match `buf[m, e)` when it is one of the forms. */
  const report = (buf: Buffer, m: number, e: number, offset: number, n: number) => {
    for (const form of forms)
      if (form.bytes.length === e - m && startsWith(buf, m, e, form.bytes)) {
        found(group[at]!, form.word, offset, n);
        return;
      }
  };
  return (chunk: Buffer) => {
    // The line cut at the end of the previous chunk goes in front (a chunk is 64 KiB: the copy
    // costs less than a second path for one line).
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    const end = buf.length;
    let start = 0;
    while (start < end) {
      if (heading && current && !expectName) {
        const next = matchLines(buf, start, end, forms, group[at]!, found);
        if (next !== start) {
          start = next;
          continue;
        }
      }
      const nl = buf.indexOf(10, start);
      if (nl === -1) break;
      line(buf, start, nl);
      start = nl + 1;
    }
    rest = start < end ? Buffer.from(buf.subarray(start)) : undefined;
  };
}
