/** Binary detection and a guess of the type from magic numbers. */

const MAGIC: ReadonlyArray<[string, number[], number?]> = [
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['gzip data', [0x1f, 0x8b]],
  ['zip archive', [0x50, 0x4b, 0x03, 0x04]],
  ['xz data', [0xfd, 0x37, 0x7a, 0x58, 0x5a]],
  ['zstd data', [0x28, 0xb5, 0x2f, 0xfd]],
  ['bzip2 data', [0x42, 0x5a, 0x68]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['Mach-O binary', [0xcf, 0xfa, 0xed, 0xfe]],
  ['Java class file', [0xca, 0xfe, 0xba, 0xbe]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ['tar archive', [0x75, 0x73, 0x74, 0x61, 0x72], 257],
];

/** How many leading bytes the decision looks at. */
export const SNIFF_BYTES = 8192;

/**
 * True when the sample looks like binary data: a known binary format, NUL bytes in more than 1%
 * of it (a stray NUL in a log is not enough), more than 10% control bytes, or mostly invalid UTF-8.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  if (guessType(sample) !== undefined) return true;
  let nul = 0;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i] as number;
    if (b === 0) nul++;
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 27 && b !== 12 && b !== 8) bad++;
  }
  if (nul * 100 > sample.length || bad * 10 > sample.length) return true;
  // Invalid UTF-8 in bulk (latin1 text is not binary; random bytes are).
  const text = Buffer.from(sample.buffer, sample.byteOffset, sample.length).toString('utf8');
  let replaced = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0xfffd) replaced++;
  return replaced * 3 > sample.length;
}

/** A human name for the data's type, or undefined when it is not recognised. */
export function guessType(sample: Uint8Array): string | undefined {
  for (const [name, bytes, offset = 0] of MAGIC) {
    if (sample.length >= offset + bytes.length && bytes.every((b, i) => sample[offset + i] === b))
      return name;
  }
  return undefined;
}
