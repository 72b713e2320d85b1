import { parseNonNegativeInteger, U64_MAX } from "../../core/amounts.js";
import { badRequest, SPEC, SOL_RULES } from "../../core/errors.js";

/** Base network fee the runtime charges per transaction signature, in lamports. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

/** Default of `fee_reserve_lamports` on consolidate, transfer and split. */
const DEFAULT_FEE_RESERVE_LAMPORTS = 5_000n;

/** Lamports a transaction needs for its signatures plus its compute-unit price × limit (rounded up). */
export function priorityFeeReserve(input: {
  cuPriceMicroLamports: bigint;
  cuLimit: bigint;
  signatures: bigint;
  lamportsPerSignature?: bigint;
}): bigint {
  const perSignature = input.lamportsPerSignature ?? LAMPORTS_PER_SIGNATURE;
  // The runtime charges ceil(price × limit / 1e6) for the requested limit, whatever is actually used.
  const priority = (input.cuPriceMicroLamports * input.cuLimit + 999_999n) / 1_000_000n;
  return perSignature * input.signatures + priority;
}

/** The spec's effective reserve: requested fee_reserve_lamports + relay tip + priority-fee reserve. */
export function effectiveReserve(input: {
  requested: bigint;
  relayTip: bigint;
  priorityFeeReserve: bigint;
}): bigint {
  return input.requested + input.relayTip + input.priorityFeeReserve;
}

/** One source of a consolidation with the balance read before anything is sent. */
export interface ConsolidationSource {
  wallet: string;
  balanceLamports: bigint;
}

/** What one source sends: its balance minus the effective reserve. */
export interface ConsolidationTransfer {
  wallet: string;
  balanceLamports: bigint;
  transferLamports: bigint;
}

/**
 * Plans every source's transfer (balance − effective reserve) before any transaction is sent; the first
 * source that cannot keep the reserve and still move at least one lamport fails the whole request with the
 * spec's prefix plus a detail naming the wallet and the shortfall.
 */
export function planConsolidation(
  sources: readonly ConsolidationSource[],
  reserve: bigint,
  /** Fields beside the low-balance detail (issue 30: what the reserve is made of). */
  extra?: Record<string, unknown>,
): { transfers: ConsolidationTransfer[]; totalLamports: bigint } {
  const transfers: ConsolidationTransfer[] = [];
  let totalLamports = 0n;
  for (const source of sources) {
    const transferLamports = source.balanceLamports - reserve;
    if (transferLamports < 1n) {
      // Shortfall counts the one lamport that must move, so "short by" is what a top-up has to add.
      const shortfall = reserve + 1n - source.balanceLamports;
      throw badRequest(
        SPEC.consolidate.lowBalancePrefix +
          `wallet ${source.wallet} has ${source.balanceLamports} lamports, ` +
          `effective reserve is ${reserve} lamports (short by ${shortfall} lamports)`,
        extra,
      );
    }
    transfers.push({ wallet: source.wallet, balanceLamports: source.balanceLamports, transferLamports });
    totalLamports += transferLamports;
  }
  return { transfers, totalLamports };
}

/** Throws the transfer 400 unless sending `amount` lamports still leaves the effective reserve. */
export function checkSolTransferBalance(input: { balance: bigint; amount: bigint; reserve: bigint }): void {
  if (input.balance - input.reserve < input.amount) throw badRequest(SPEC.transfer.lowBalance);
}

/** Throws the transfer 400 unless the wallet can pay the effective reserve (token transfers move no SOL). */
export function checkFeeBalance(input: { balance: bigint; reserve: bigint }): void {
  if (input.balance < input.reserve) throw badRequest(SPEC.transfer.lowBalance);
}

/** Split's spendable lamports (balance − effective reserve); at least one lamport or the split 400. */
export function splitSpendable(input: { balance: bigint; reserve: bigint }): bigint {
  const spendable = input.balance - input.reserve;
  if (spendable < 1n) throw badRequest(SPEC.split.lowBalance);
  return spendable;
}

/** Parses `fee_reserve_lamports`: a non-negative integer (JSON number or digit string), default 5000. */
export function parseFeeReserveLamports(value: unknown): bigint {
  if (value === undefined || value === null) return DEFAULT_FEE_RESERVE_LAMPORTS;
  const lamports = parseNonNegativeInteger(value, SOL_RULES.feeReserve);
  if (lamports > U64_MAX) throw badRequest(SOL_RULES.feeReserve);
  return lamports;
}

/**
 * Rent-exempt minimum of an account holding `dataLength` bytes under the runtime's rent (3,480 lamports per
 * byte-year, two years, 128 bytes of account overhead), which mainnet has never changed; computed locally so
 * no request pays a round trip for it.
 */
export function rentExemptMinimum(dataLength: number): bigint {
  return BigInt(128 + dataLength) * 6_960n;
}

/** Rent-exempt minimum of a plain system account (no data): 890,880 lamports. */
export const SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM = rentExemptMinimum(0);

/** What an effective reserve is made of (issue 30: the answers say it, beside the spec's fee_reserve_lamports). */
export interface ReserveBreakdown {
  /** `fee_reserve_lamports` as requested (default 5000). */
  requestedLamports: bigint;
  /** The spec's "fee reserve" term: the requested part, raised to the rent-exempt minimum when below it. */
  feeReserveLamports: bigint;
  /** The rent-exempt minimum of a system account (890,880) the fee reserve is raised to. */
  rentExemptMinimumLamports: bigint;
  relayTipLamports: bigint;
  /** The spec's "priority-fee reserve" term: signature fees plus the priority fee. */
  priorityFeeReserveLamports: bigint;
  /** 5000 lamports per signature. */
  signatureFeeLamports: bigint;
  /** ceil(compute-unit price × limit / 10^6) at the price pinned on the transaction. */
  priorityFeeLamports: bigint;
  /** The effective reserve: fee reserve + relay tip + priority-fee reserve. */
  totalLamports: bigint;
}

/**
 * Effective reserve of one transaction the wallet signs and pays, term by term: requested + relay tip +
 * priority-fee reserve for the compute budget the transaction will carry. The requested part is raised to the
 * rent-exempt minimum of a system account, because the runtime refuses any transaction that leaves its fee
 * payer with a balance between 0 and that minimum (InsufficientFundsForRent): a reserve below it would
 * only buy a failed transaction.
 */
export function transactionReserveBreakdown(input: {
  requested: bigint;
  relayTip: bigint;
  budget: { maxUnitLimit: bigint; priceMicroLamports: bigint };
  signatures?: bigint;
}): ReserveBreakdown {
  const feeReserve =
    input.requested > SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM
      ? input.requested
      : SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM;
  const signatureFee = LAMPORTS_PER_SIGNATURE * (input.signatures ?? 1n);
  const priorityFeeReserveLamports = priorityFeeReserve({
    cuPriceMicroLamports: input.budget.priceMicroLamports,
    cuLimit: input.budget.maxUnitLimit,
    signatures: input.signatures ?? 1n,
  });
  return {
    requestedLamports: input.requested,
    feeReserveLamports: feeReserve,
    rentExemptMinimumLamports: SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM,
    relayTipLamports: input.relayTip,
    priorityFeeReserveLamports,
    signatureFeeLamports: signatureFee,
    priorityFeeLamports: priorityFeeReserveLamports - signatureFee,
    totalLamports: effectiveReserve({
      requested: feeReserve,
      relayTip: input.relayTip,
      priorityFeeReserve: priorityFeeReserveLamports,
    }),
  };
}

/** The effective reserve of one transaction (the total of `transactionReserveBreakdown`). */
export function transactionReserve(input: Parameters<typeof transactionReserveBreakdown>[0]): bigint {
  return transactionReserveBreakdown(input).totalLamports;
}

/** The breakdown on the wire: lamport strings, named as the answer documents them. */
export function reserveBreakdownBody(b: ReserveBreakdown): Record<string, string> {
  return {
    requested_lamports: b.requestedLamports.toString(),
    rent_exempt_minimum_lamports: b.rentExemptMinimumLamports.toString(),
    fee_reserve_lamports: b.feeReserveLamports.toString(),
    relay_tip_lamports: b.relayTipLamports.toString(),
    signature_fee_lamports: b.signatureFeeLamports.toString(),
    priority_fee_lamports: b.priorityFeeLamports.toString(),
    priority_fee_reserve_lamports: b.priorityFeeReserveLamports.toString(),
    total_lamports: b.totalLamports.toString(),
  };
}

/**
 * The breakdown in one sentence: `effective reserve 901880 lamports = fee reserve 890880 (fee_reserve_lamports
 * 5000 raised to the rent-exempt minimum of a system account) + relay tip 1000 + priority-fee reserve 10000
 * (signature fee 5000 + priority fee 5000)`.
 */
export function reserveBreakdownText(b: ReserveBreakdown): string {
  const raised =
    b.feeReserveLamports > b.requestedLamports
      ? ` (fee_reserve_lamports ${b.requestedLamports} raised to the rent-exempt minimum of a system account)`
      : "";
  return (
    `effective reserve ${b.totalLamports} lamports = fee reserve ${b.feeReserveLamports}${raised} + ` +
    `relay tip ${b.relayTipLamports} + priority-fee reserve ${b.priorityFeeReserveLamports} ` +
    `(signature fee ${b.signatureFeeLamports} + priority fee ${b.priorityFeeLamports})`
  );
}

/**
 * Throws `detail` when a system transfer of `lamports` would create an account (it does not exist yet) below
 * the rent-exempt minimum, which the runtime refuses: better a 400 now than a fee spent on a failed send.
 */
export function checkNewAccountFunding(input: { exists: boolean; lamports: bigint; detail: string }): void {
  if (!input.exists && input.lamports < SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM) throw badRequest(input.detail);
}
