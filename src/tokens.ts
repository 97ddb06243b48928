/**
 * The one token estimator used everywhere (summary header, stats). It is a byte ratio
 * calibrated on the needle corpus against the o200k tokenizer; see README "Token estimate".
 */
export const BYTES_PER_TOKEN = 3.6;

/** Estimated tokens for a number of bytes of tool output. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}
