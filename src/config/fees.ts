/** The priority-fee part of the configuration: a fixed compute-unit price, or `auto[:p50|p75|p90]` with a cap. */
import { DEFAULT_MIN_MICRO_LAMPORTS } from "../chain/priority-fee.js";
import { ConfigError, optionalBig, raw } from "./parse.js";

/** The resolved fee policy. */
export interface FeeSettings {
  /** A fixed price (micro-lamports per compute unit), or "auto" (estimated from recent fees). */
  price: bigint | "auto";
  /** Percentile of recent fees used by "auto". */
  percentile: number;
  /** Cap of the automatic price. */
  max: bigint;
}

/** Fixed price when COMPUTE_UNIT_PRICE_MICROLAMPORTS is unset. */
export const DEFAULT_CU_PRICE = 100_000n;
/** Default cap of "auto": at 200 000 CU it bounds the priority fee to 0.0004 SOL per transaction. */
export const DEFAULT_CU_PRICE_MAX = 2_000_000n;
const PERCENTILES: Record<string, number> = { p50: 50, p75: 75, p90: 90 };

/** Parses COMPUTE_UNIT_PRICE_MICROLAMPORTS and COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS. */
export function loadFeeSettings(env: NodeJS.ProcessEnv): FeeSettings {
  const name = "COMPUTE_UNIT_PRICE_MICROLAMPORTS";
  const explicitMax = optionalBig(env, "COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS");
  const max = explicitMax ?? DEFAULT_CU_PRICE_MAX;
  if (max === 0n) throw new ConfigError("COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS", "must be positive");
  const v = raw(env, name);
  const auto = v === undefined ? undefined : /^auto(?::(p\d+))?$/.exec(v);
  if (auto) {
    const p = auto[1] ?? "p75";
    const percentile = PERCENTILES[p];
    if (percentile === undefined) {
      throw new ConfigError(name, `must be auto, auto:p50, auto:p75 or auto:p90 (got "${v}")`);
    }
    if (max < DEFAULT_MIN_MICRO_LAMPORTS) {
      throw new ConfigError(
        "COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS",
        `must be at least ${DEFAULT_MIN_MICRO_LAMPORTS} (the floor of auto), got ${max}`,
      );
    }
    return { price: "auto", percentile, max };
  }
  if (v !== undefined && !/^\d+$/.test(v)) {
    throw new ConfigError(name, `must be a non-negative integer or auto[:p50|p75|p90], got "${v}"`);
  }
  const price = v === undefined ? DEFAULT_CU_PRICE : BigInt(v);
  if (explicitMax !== undefined && price > explicitMax) {
    throw new ConfigError(name, `${price} is above COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS (${explicitMax})`);
  }
  return { price, percentile: 75, max };
}
