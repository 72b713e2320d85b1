import { FULL_PERCENT_HUNDREDTHS } from "../../core/amounts.js";
import { badRequest, SPEC } from "../../core/errors.js";

/** A destination of a split as parsed from the request, in request order. */
export type SplitDestination =
  | { wallet: string; mode: "fixed"; lamports: bigint }
  | { wallet: string; mode: "percent"; hundredths: bigint }
  | { wallet: string; mode: "equal" };

/** One transfer of a split, in request order. */
export interface SplitTransfer {
  wallet: string;
  lamports: bigint;
  mode: "fixed" | "percent" | "equal";
}

/** The outcome of allocating a split: the selected total and one transfer per destination. */
export interface SplitAllocation {
  transferTotal: bigint;
  transfers: SplitTransfer[];
}

/** Inputs of `allocateSplit`; percents are in hundredths of a percent (100% = 10_000). */
export interface SplitAllocationInput {
  spendable: bigint;
  totalPercentHundredths: bigint;
  destinations: readonly SplitDestination[];
}

/** The spec's 400 when the percent entries add up to more than 100 % (needs no balance, so parsers call it too). */
export function checkPercentSum(destinations: readonly SplitDestination[]): void {
  let percentSum = 0n;
  for (const d of destinations) if (d.mode === "percent") percentSum += d.hundredths;
  if (percentSum > FULL_PERCENT_HUNDREDTHS) throw badRequest(SPEC.split.percentOver);
}

/** The share of `spendable` selected by total_percent, rounded down so it never exceeds what can be spent. */
function selectedTransferTotal(spendable: bigint, totalPercentHundredths: bigint): bigint {
  if (totalPercentHundredths <= 0n || totalPercentHundredths > FULL_PERCENT_HUNDREDTHS)
    throw badRequest(SPEC.split.totalPercent);
  if (spendable <= 0n) throw badRequest(SPEC.split.lowBalance);
  return (spendable * totalPercentHundredths) / FULL_PERCENT_HUNDREDTHS;
}

/**
 * Allocates the selected total in the spec's order: (1) fixed entries, (2) percent entries of the selected
 * total (rounded down), (3) equal entries share the remainder, (4) dust one lamport at a time to the earlier
 * equal entries. Every destination gets at least one lamport and the transfers sum to the selected total.
 */
export function allocateSplit(input: SplitAllocationInput): SplitAllocation {
  const { destinations } = input;
  if (destinations.length < 1 || destinations.length > 5) throw badRequest(SPEC.split.destinationsCount);
  if (input.totalPercentHundredths <= 0n || input.totalPercentHundredths > FULL_PERCENT_HUNDREDTHS) {
    throw badRequest(SPEC.split.totalPercent);
  }
  checkPercentSum(destinations);
  const transferTotal = selectedTransferTotal(input.spendable, input.totalPercentHundredths);

  const amounts: bigint[] = destinations.map((d) => {
    if (d.mode === "fixed") return d.lamports;
    if (d.mode === "percent") return (transferTotal * d.hundredths) / FULL_PERCENT_HUNDREDTHS;
    return 0n;
  });
  const allocated = amounts.reduce((a, b) => a + b, 0n);
  if (allocated > transferTotal) throw badRequest(SPEC.split.amountsExceed);

  const equalIndexes = destinations.flatMap((d, i) => (d.mode === "equal" ? [i] : []));
  const remainder = transferTotal - allocated;
  if (equalIndexes.length === 0) {
    if (remainder !== 0n) throw badRequest(SPEC.split.notConsumed);
  } else {
    const count = BigInt(equalIndexes.length);
    const share = remainder / count;
    const dust = remainder % count;
    equalIndexes.forEach((index, k) => {
      amounts[index] = share + (BigInt(k) < dust ? 1n : 0n);
    });
  }
  if (amounts.some((a) => a < 1n)) throw badRequest(SPEC.split.minLamport);

  return {
    transferTotal,
    transfers: destinations.map((d, i) => ({
      wallet: d.wallet,
      lamports: amounts[i] as bigint,
      mode: d.mode,
    })),
  };
}
