/**
 * Cashback check and claim rules (spec 4.6, 4.7): request parsing and the claimable amounts computed from the
 * accounts one batch read returned. Amounts are integers first; the `*_sol` texts are formatted from them.
 */
import bs58 from "bs58";
import { type Address, parseAddress } from "../../core/addresses.js";
import { formatLamportsAsSol } from "../../core/amounts.js";
import {
  isPresent,
  parseBooleanField,
  parseOptionalWallet,
  type RequestBody,
} from "../../core/request-fields.js";
import { badRequest, SPEC, upstreamError, TRADE_RULES, CASHBACK_RULES } from "../../core/errors.js";

/** Most wallets one cashback check may name. */
const MAX_CASHBACK_WALLETS = 100;

/** Which wallets a check reads: the key's default wallet, or the given addresses (deduplicated, in order). */
export type CashbackCheckRequest = { kind: "default" } | { kind: "wallets"; wallets: Address[] };

/** Parses `POST /v1/cashback/check`'s body: `wallet` or `wallets` (1..100, duplicates removed) or neither. */
export function parseCashbackCheckRequest(body: RequestBody): CashbackCheckRequest {
  const { wallet, wallets } = body;
  if (isPresent(wallet) && isPresent(wallets)) throw badRequest(SPEC.check.walletAndWallets);
  if (isPresent(wallet)) {
    return { kind: "wallets", wallets: [parseAddress(wallet, SPEC.check.invalidAddress)] };
  }
  if (!isPresent(wallets)) return { kind: "default" };
  // The bound applies to the list as sent, so a huge list of repeats is refused before any work is done.
  if (!Array.isArray(wallets) || wallets.length < 1 || wallets.length > MAX_CASHBACK_WALLETS) {
    throw badRequest(SPEC.check.walletsCount);
  }
  const parsed = wallets.map((w: unknown) => parseAddress(w, SPEC.check.invalidAddress));
  return { kind: "wallets", wallets: [...new Set(parsed)] };
}

/** A validated claim request; `wallet` undefined means the key's default wallet. */
export interface ClaimRequest {
  wallet?: Address;
  claimBondingCurve: boolean;
  claimLaunchswap: boolean;
  confirm: boolean;
}

/** Parses `POST /v1/cashback/claim/execute`'s body; at least one claim type must stay enabled. */
export function parseClaimRequest(body: RequestBody): ClaimRequest {
  const wallet = parseOptionalWallet(body.wallet);
  const claimBondingCurve = parseBooleanField(
    body.claim_bonding_curve,
    true,
    CASHBACK_RULES.claimBondingBoolean,
  );
  const claimLaunchswap = parseBooleanField(
    body.claim_launchswap,
    true,
    CASHBACK_RULES.claimLaunchswapBoolean,
  );
  if (!claimBondingCurve && !claimLaunchswap) throw badRequest(SPEC.claim.noneEnabled);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  return { ...(wallet === undefined ? {} : { wallet }), claimBondingCurve, claimLaunchswap, confirm };
}

/** An account as a batch read returned it (null in the inputs below when the account does not exist). */
export interface AccountSnapshot {
  lamports: bigint;
  /** Owner program, base58. */
  owner: string;
  data: Uint8Array;
}

/** The three addresses a wallet's cashback lives in, as the spec's response names them. */
export interface CashbackAccounts {
  launch_user_volume_accumulator: string;
  launchswap_user_volume_accumulator: string;
  launchswap_wsol_ata: string;
}

/** Everything computeCashback needs for one wallet. */
export interface CashbackInput {
  wallet: string;
  accounts: CashbackAccounts;
  /** The launch program's user volume accumulator of the wallet. */
  bondingAccount: AccountSnapshot | null;
  /** The WSOL associated token account of the wallet's swap user volume accumulator. */
  swapWsolAccount: AccountSnapshot | null;
  /** Rent-exempt minimum for an account of `dataLength` bytes. */
  rentExemptMinimum: (dataLength: number) => bigint;
  expected: {
    /** The launch (bonding-curve) program id, base58. */
    launchProgram: string;
    /** The token program of the WSOL mint (SPL Token), base58. */
    tokenProgram: string;
    /** The native (WSOL) mint, base58. */
    nativeMint: string;
  };
}

/** One wallet's entry of the check response. */
export interface CashbackEntry {
  wallet: string;
  launch_bonding_lamports: bigint;
  launch_bonding_sol: string;
  launchswap_wsol_lamports: bigint;
  launchswap_wsol: string;
  total_claimable_lamports: bigint;
  total_claimable_sol: string;
  accounts: CashbackAccounts;
}

/** The check response's totals across the returned wallets. */
export interface CashbackTotals {
  launch_bonding_lamports: bigint;
  launch_bonding_sol: string;
  launchswap_wsol_lamports: bigint;
  launchswap_wsol: string;
  combined_lamports: bigint;
  combined_sol: string;
}

// SPL token account layout: mint 0..32, owner 32..64, amount u64 LE 64..72, state u8 at 108; 165 bytes.
const TOKEN_ACCOUNT_LENGTH = 165;
const TOKEN_STATE_OFFSET = 108;

/** Bonding-curve cashback: accumulator lamports above its rent-exempt minimum; 0 when the account is missing. */
function bondingCashback(
  account: AccountSnapshot | null,
  launchProgram: string,
  rentExemptMinimum: (dataLength: number) => bigint,
): bigint {
  if (account === null) return 0n;
  if (account.owner !== launchProgram) throw upstreamError(SPEC.check.badOwner);
  const claimable = account.lamports - rentExemptMinimum(account.data.length);
  return claimable > 0n ? claimable : 0n;
}

/**
 * Swap cashback: the WSOL balance of the accumulator's token account, which must be an initialized SPL token
 * account of the native mint owned by that accumulator; 0 when the account is missing.
 */
export function swapCashback(
  account: AccountSnapshot | null,
  accumulator: string,
  expected: { tokenProgram: string; nativeMint: string },
): bigint {
  if (account === null) return 0n;
  const { data } = account;
  const state = data[TOKEN_STATE_OFFSET];
  const valid =
    account.owner === expected.tokenProgram &&
    data.length === TOKEN_ACCOUNT_LENGTH &&
    bs58.encode(data.subarray(0, 32)) === expected.nativeMint &&
    bs58.encode(data.subarray(32, 64)) === accumulator &&
    (state === 1 || state === 2);
  if (!valid) throw upstreamError(SPEC.check.badSwapAccount);
  return Buffer.from(data.buffer, data.byteOffset + 64, 8).readBigUInt64LE(0);
}

/** One wallet's check entry: both sources, their sum and the SOL texts, from the accounts read. */
export function computeCashback(input: CashbackInput): CashbackEntry {
  const bonding = bondingCashback(
    input.bondingAccount,
    input.expected.launchProgram,
    input.rentExemptMinimum,
  );
  const swap = swapCashback(
    input.swapWsolAccount,
    input.accounts.launchswap_user_volume_accumulator,
    input.expected,
  );
  const total = bonding + swap;
  return {
    wallet: input.wallet,
    launch_bonding_lamports: bonding,
    launch_bonding_sol: formatLamportsAsSol(bonding),
    launchswap_wsol_lamports: swap,
    launchswap_wsol: formatLamportsAsSol(swap),
    total_claimable_lamports: total,
    total_claimable_sol: formatLamportsAsSol(total),
    accounts: input.accounts,
  };
}

/** Totals of the check response, summed from the entries' integers. */
export function cashbackTotals(entries: readonly CashbackEntry[]): CashbackTotals {
  let bonding = 0n;
  let swap = 0n;
  for (const e of entries) {
    bonding += e.launch_bonding_lamports;
    swap += e.launchswap_wsol_lamports;
  }
  return {
    launch_bonding_lamports: bonding,
    launch_bonding_sol: formatLamportsAsSol(bonding),
    launchswap_wsol_lamports: swap,
    launchswap_wsol: formatLamportsAsSol(swap),
    combined_lamports: bonding + swap,
    combined_sol: formatLamportsAsSol(bonding + swap),
  };
}
