/**
 * A named field's rare value. Reports and listings print records of named fields, one a line
 * (`licenses: MIT` in a license listing, `Severity: Low   Confidence: High` in a security
 * scanner's findings, `"status": "passed",` in a JSON report, `Status: installed` in a package
 * manager's): a field seen on many lines with a few values that repeat, one of them on most, has a norm,
 * and the line whose value there is seen once or twice is news (the one copyleft license, the one
 * high-severity finding), however its words read, as a rare rule code is (see codes.ts). Fields
 * of names, paths, addresses or numbers (values all different, or masked alike) say nothing.
 *
 * It reads the bounded set of lines the summary chooses from, never every line of the output.
 */
import { countIn, rarityWorth } from './codes.js';

/** Lines of a field needed before its values say anything. */
const MIN_LINES = 20;
/** Values of a field needed: fewer are a constant or a yes and a no. */
const MIN_VALUES = 3;
/** At most this share of a field's lines may be distinct values: more, and it holds names. */
const MAX_SHARE = 1 / 4;
/** The least share of a field's lines its commonest value has: a norm that a rare value breaks. */
const NORM = 1 / 2;
/** The longest value read: a level, a status, a license, not a message. */
const MAX_VALUE = 40;

/**
 * A field on its own line, after an indentation or a tree's branches (`│  ├─ `), a name of a
 * few words then a colon, or a quoted JSON key: its name and its value.
 */
const FIELD = /^[\s│├└─┬┼|`+\\-]*(?:"([\w .-]{1,30})"|([A-Za-z][\w .-]{0,29}?)):\s+(\S.*?),?\s*$/;

/** A field's name and its value (digits masked: numbers are another column's business), or undefined. */
function fieldOf(text: string): { name: string; value: string } | undefined {
  const m = FIELD.exec(text);
  if (m === null) return undefined;
  const value = (m[3] as string).replace(/^"(.*)"$/, '$1').replace(/\d+/g, '#');
  // A path, a file, an address or an e-mail is a name; a value without a letter is a number.
  if (value.length > MAX_VALUE || /[/\\@]|\w\.[A-Za-z]\w{0,5}\b/.test(value) || !/[A-Za-z]/.test(value))
    return undefined;
  return { name: (m[1] ?? m[2] ?? '').toLowerCase(), value };
}

/** A rare value's worth and a tag for it: a line of a rare value is a template of its own. */
export interface FieldRarity {
  worth(text: string): number;
  /** `''`, or the field and the rare value (appended to the template's key). */
  tag(text: string): string;
}

/** What a rare value's tag starts with. */
const TAG = '\u0002';

/** Whether a line's template key says its field's value is rare (see FieldRarity.tag). */
export const isRareField = (key: string): boolean => key.includes(TAG);

const NONE: FieldRarity = { worth: () => 0, tag: () => '' };

/** The worth of each line's value being rare in its field (see rarityWorth), learnt from `lines`. */
export function fieldRarity(lines: Iterable<string>): FieldRarity {
  const fields = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  const parts: { text: string; name: string; value: string }[] = [];
  for (const text of lines) {
    const field = fieldOf(text);
    if (field === undefined) continue;
    const { name, value } = field;
    countIn(fields, name, value);
    sizes.set(name, (sizes.get(name) ?? 0) + 1);
    parts.push({ text, name, value });
  }
  const norms = new Set<string>();
  for (const [name, counts] of fields) {
    const n = sizes.get(name) ?? 0;
    const norm = Math.max(...counts.values());
    if (n >= MIN_LINES && counts.size >= MIN_VALUES && counts.size <= n * MAX_SHARE && norm >= NORM * n)
      norms.add(name);
  }
  if (norms.size === 0) return NONE;
  const rare = new Map<string, { worth: number; tag: string }>();
  for (const { text, name, value } of parts) {
    if (!norms.has(name)) continue;
    const worth = rarityWorth(fields.get(name)?.get(value) ?? 1);
    if (worth > 0) rare.set(text, { worth, tag: `${TAG}${name}:${value}` });
  }
  return { worth: (text) => rare.get(text)?.worth ?? 0, tag: (text) => rare.get(text)?.tag ?? '' };
}

/** How far above a field its record's header is looked for. */
const RECORD_REACH = 40;
/** A line's depth: its indentation with a tree's branches (`│  ├─ `) counted as indentation. */
const depthOf = (text: string) => /^[\s│├└─┬┼|`+\\-]*/.exec(text)?.[0].length ?? 0;

/**
 * The header of the record a field belongs to: the nearest line above it, in its paragraph, that
 * is less deep (`├─ mariadb@3.5.4` above `│  ├─ licenses: LGPL-2.1-or-later`, a YAML or JSON
 * object's key above its fields). [] when there is none.
 */
export function recordHeader(at: (line: number) => string | undefined, n: number): number[] {
  const depth = depthOf(at(n) ?? '');
  for (let k = n - 1; k >= Math.max(1, n - RECORD_REACH); k--) {
    const above = at(k);
    if (above === undefined || above.trim() === '') return [];
    if (depthOf(above) < depth && /[A-Za-z]/.test(above)) return [k];
  }
  return [];
}
