/**
 * Issue 22: refuse before sending what the paying wallet cannot pay, naming the wallet (and the leg of a
 * bundle). Pure rules: the caller reads the balance and knows what its transaction spends. The estimate is a
 * floor (amount + fees + tip + rent of accounts the transaction creates), so a refusal is never wrong; a
 * transaction that passes may still fail for costs the floor leaves out, and then its program error is named.
 */
import { formatLamportsAsSol } from "../../core/amounts.js";
import { badRequest, OUTCOME_RULES, type ApiError } from "../../core/errors.js";

const LAMPORTS_PER_SIGNATURE = 5000n;

/** Rent-exempt minimum of an SPL token account (165 bytes): 2,039,280 lamports. */
export const TOKEN_ACCOUNT_RENT_LAMPORTS = BigInt(128 + 165) * 6960n;

/** What one transaction of a wallet costs it, at least. */
export interface TransactionCost {
  /** SOL the instructions move out of the wallet (a buy's maximum SOL in; 0 for a sell). */
  amountLamports: bigint;
  /** Signatures the transaction carries (the base fee is per signature). */
  signatures?: bigint;
  computeUnitLimit: bigint;
  computeUnitPriceMicroLamports: bigint;
  tipLamports: bigint;
  /** Rent of the accounts the transaction creates and the wallet pays for. */
  rentLamports: bigint;
}

/** The least lamports the wallet needs for the transaction. */
export function lamportsNeeded(c: TransactionCost): bigint {
  const priority = (c.computeUnitPriceMicroLamports * c.computeUnitLimit + 999_999n) / 1_000_000n;
  return (
    c.amountLamports +
    LAMPORTS_PER_SIGNATURE * (c.signatures ?? 1n) +
    priority +
    c.tipLamports +
    c.rentLamports
  );
}

/** Who pays, what it holds, and what the execution is called in the message ("trade", "bundle leg 1"). */
export interface Payer {
  wallet: string;
  balanceLamports: bigint;
  what: string;
  /** The bundle leg index, reported as `index` in the error body. */
  leg?: number;
}

/**
 * `insufficient SOL: wallet <w> has X SOL, this trade needs about Y SOL` (400) when the balance is below the
 * need; null when it covers it. With `simulationFailedDetail` (the request asked for a simulation) the refusal
 * stands in for the simulation the spec describes, so its detail is the spec's text (e.g. `trade simulation
 * failed`) and the explanation moves beside it: `reason`, `program_error` (null: no program ran), the figures.
 */
export function insufficientSol(
  payer: Payer,
  neededLamports: bigint,
  simulationFailedDetail?: string,
): ApiError | null {
  if (payer.balanceLamports >= neededLamports) return null;
  const reason =
    `${OUTCOME_RULES.insufficientSolPrefix}${payer.wallet} has ${formatLamportsAsSol(payer.balanceLamports)} SOL, ` +
    `this ${payer.what} needs about ${formatLamportsAsSol(neededLamports)} SOL`;
  const figures = {
    wallet: payer.wallet,
    balance_lamports: payer.balanceLamports.toString(),
    required_lamports: neededLamports.toString(),
    // Issue 22's name of the same figure, kept for clients that read it.
    needed_lamports: neededLamports.toString(),
    ...(payer.leg !== undefined ? { index: payer.leg } : {}),
  };
  if (simulationFailedDetail === undefined) return badRequest(reason, figures);
  return badRequest(simulationFailedDetail, { reason, program_error: null, ...figures });
}
