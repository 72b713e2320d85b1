/**
 * Issue 22 item 5: the bounds of the per-request `priority_fee` and `tip` fields, and whether unknown body
 * fields of an execution request are refused (STRICT_FIELDS) rather than answered with a warning.
 */
import { parseDecimal } from "../core/amounts.js";
import { ConfigError, oneOf, raw } from "./parse.js";

/** The per-request fee settings. */
export interface RequestFeeSettings {
  /** Largest `priority_fee` one transaction may carry, lamports. */
  readonly priorityFeeMaxLamports: bigint;
  /** Largest `tip` (relay tip of a transaction, or a bundle's tip), lamports. */
  readonly tipMaxLamports: bigint;
  /** true: an unknown field of an execution body is a 400; false: it is ignored with a warning. */
  readonly strictFields: boolean;
}

/** Default of PRIORITY_FEE_MAX_SOL: well above any sensible priority fee, far below a fat-fingered "1". */
export const DEFAULT_PRIORITY_FEE_MAX_LAMPORTS = 100_000_000n;
/** Default of TIP_MAX_SOL (0.1 SOL), for the same reason. */
export const DEFAULT_TIP_MAX_LAMPORTS = 100_000_000n;

/** A positive SOL amount (at most 9 decimals) from the environment, in lamports. */
function solVariable(env: NodeJS.ProcessEnv, name: string, dflt: bigint): bigint {
  const v = raw(env, name);
  if (v === undefined) return dflt;
  const parsed = parseDecimal(v, 9);
  if (parsed.kind !== "ok" || parsed.scaled <= 0n || parsed.scaled > 1_000_000_000_000n)
    throw new ConfigError(
      name,
      `must be a positive SOL amount of at most 9 decimals and 1000 SOL (got "${v}")`,
    );
  return parsed.scaled;
}

/** Parses PRIORITY_FEE_MAX_SOL, TIP_MAX_SOL and STRICT_FIELDS. */
export function loadRequestFeeSettings(env: NodeJS.ProcessEnv): RequestFeeSettings {
  return Object.freeze({
    priorityFeeMaxLamports: solVariable(env, "PRIORITY_FEE_MAX_SOL", DEFAULT_PRIORITY_FEE_MAX_LAMPORTS),
    tipMaxLamports: solVariable(env, "TIP_MAX_SOL", DEFAULT_TIP_MAX_LAMPORTS),
    strictFields: oneOf(env, "STRICT_FIELDS", ["true", "false"] as const, "false") === "true",
  });
}
