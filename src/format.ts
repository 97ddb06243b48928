/** Small, deterministic formatters shared by every command's output. */

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  // Not toLocaleString for whole numbers: its first call loads ICU data (about 15 ms), and
  // every summary header calls this, so every wrapped command would pay for it.
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Bytes in decimal units with at most three significant digits: 999 B, 1.2 kB, 34 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value < 9.995 ? 1 : 0;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** Milliseconds as 45ms, 3.2s, 4m05s, 2h03m. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const total = Math.round(s);
  if (total < 3600) return `${Math.floor(total / 60)}m${String(total % 60).padStart(2, '0')}s`;
  return `${Math.floor(total / 3600)}h${String(Math.floor((total % 3600) / 60)).padStart(2, '0')}m`;
}

/** A compact token figure: 840, 12k, 3.4M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${n < 9950 ? (n / 1000).toFixed(1) : Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
