/** Latency statistics shared by the soak suite and the benchmark. */

/** The p-th percentile (0..100, nearest rank) of ascending `sorted`; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** `values` in ascending order (a copy). */
export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}
