/**
 * A pure function of a line, remembered for the lines seen last: the summary asks several
 * times for each of a few thousand held lines (and its warm-up asks first, see
 * capture/warm-summary.ts). Forgets everything when full, so that memory stays bounded.
 */
export function remembered<T>(compute: (line: string) => T, size = 4096): (line: string) => T {
  const memo = new Map<string, T>();
  return (line) => {
    let value = memo.get(line);
    if (value === undefined) {
      if (memo.size >= size) memo.clear();
      value = compute(line);
      memo.set(line, value);
    }
    return value;
  };
}
