/**
 * The one token estimator used everywhere (summary header, stats): a byte ratio, because it
 * costs nothing on the capture path. Against the o200k tokenizer on the needle corpus
 * (`node scripts/token-accuracy.mjs`) it is 13% low in total, 15% off on the median file and
 * 31% off at worst (whitespace-heavy output such as `git log --stat` has more tokens per byte).
 */
const BYTES_PER_TOKEN = 3.4;

/** Estimated tokens for a number of bytes of tool output. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}
