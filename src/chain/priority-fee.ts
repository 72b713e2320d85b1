/** How the compute-unit price is chosen: a fixed figure, or an estimate from recent prioritization fees. */
export type PriorityFeeSetting =
  | { mode: "fixed"; microLamports: bigint }
  | {
      mode: "auto";
      /** Percentile (0..100) of recent non-zero fees. Default 75. */
      percentile?: number;
      /** Floor and cap of the estimate, micro-lamports per compute unit. Defaults 1 000 and 2 000 000. */
      minMicroLamports?: bigint;
      maxMicroLamports?: bigint;
      /** Writable accounts whose lock contention matters (e.g. the launch programs' globals). */
      accounts?: string[];
    };

/** Floor of the automatic estimate: enough to be ordered ahead of zero-fee traffic. */
export const DEFAULT_MIN_MICRO_LAMPORTS = 1_000n;
/** Cap of the automatic estimate: at 200 000 CU it bounds the priority fee to 0.0004 SOL per transaction. */
const DEFAULT_MAX_MICRO_LAMPORTS = 2_000_000n;

/**
 * The estimate from a getRecentPrioritizationFees sample: the given percentile of the non-zero fees (zeros
 * are idle slots and would drag the figure down), clamped to [min, max]; min when the sample has no fee.
 */
export function estimatePriorityFee(
  fees: bigint[],
  setting: { percentile?: number; minMicroLamports?: bigint; maxMicroLamports?: bigint },
): bigint {
  const min = setting.minMicroLamports ?? DEFAULT_MIN_MICRO_LAMPORTS;
  const max = setting.maxMicroLamports ?? DEFAULT_MAX_MICRO_LAMPORTS;
  if (max < min) throw new RangeError("maxMicroLamports must not be below minMicroLamports");
  const nonZero = fees.filter((f) => f > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (nonZero.length === 0) return min;
  const p = Math.min(100, Math.max(0, setting.percentile ?? 75));
  const index = Math.min(nonZero.length - 1, Math.ceil((p / 100) * nonZero.length) - 1);
  const picked = nonZero[Math.max(0, index)] ?? min;
  if (picked < min) return min;
  if (picked > max) return max;
  return picked;
}
