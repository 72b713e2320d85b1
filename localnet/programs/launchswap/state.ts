/** Loading and storing the swap program's own accounts (pool, configs, user volume accumulators). */
import { PublicKey } from "@solana/web3.js";
import type { LedgerAccess } from "../types.js";
import { ANCHOR, fail } from "./account-check.js";
import { FEE_PROGRAM_ID, SWAP_PROGRAM_ID } from "./addresses.js";
import {
  USER_VOLUME_ACCUMULATOR_SIZE,
  big,
  decodeAccount,
  encodeAccount,
  hasDiscriminator,
  type FeeConfigData,
  type FeesData,
  type GlobalConfigData,
  type PoolData,
  type UserVolumeAccumulatorData,
} from "./codec.js";
import type { FeeRates, FeeSchedule } from "./fees.js";
import { transferLamports } from "./token-io.js";

type Named = "Pool" | "GlobalConfig" | "FeeConfig" | "UserVolumeAccumulator";

/** Loads a program account, failing like Anchor's Account<T> when it is missing or foreign. */
function loadAccount<T>(
  ledger: LedgerAccess,
  key: PublicKey,
  name: Named,
  owner: PublicKey,
  label: string,
): T {
  const acc = ledger.getAccount(key);
  if (!acc) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", label);
  if (!acc.owner.equals(owner)) fail(ANCHOR.AccountOwnedByWrongProgram, "AccountOwnedByWrongProgram", label);
  if (!hasDiscriminator(acc.data, name))
    fail(ANCHOR.AccountDiscriminatorMismatch, "AccountDiscriminatorMismatch", label);
  return decodeAccount<T>(name, acc.data);
}

/** Loads a pool. */
export function loadPool(ledger: LedgerAccess, key: PublicKey): PoolData {
  return loadAccount<PoolData>(ledger, key, "Pool", SWAP_PROGRAM_ID, "pool");
}

/** Loads GlobalConfig. */
export function loadGlobalConfig(ledger: LedgerAccess, key: PublicKey): GlobalConfigData {
  return loadAccount<GlobalConfigData>(ledger, key, "GlobalConfig", SWAP_PROGRAM_ID, "global_config");
}

function rates(f: FeesData): FeeRates {
  return {
    lpBps: big(f.lp_fee_bps),
    protocolBps: big(f.protocol_fee_bps),
    creatorBps: big(f.creator_fee_bps),
  };
}

/** Loads the swap FeeConfig (owned by the fee program) as a fee schedule. */
export function loadFeeSchedule(ledger: LedgerAccess, key: PublicKey): FeeSchedule {
  const fc = loadAccount<FeeConfigData>(ledger, key, "FeeConfig", FEE_PROGRAM_ID, "fee_config");
  const tiers = (t: FeeConfigData["fee_tiers"]): FeeSchedule["tiers"] =>
    t.map((x) => ({ threshold: big(x.market_cap_lamports_threshold), fees: rates(x.fees) }));
  return {
    flat: rates(fc.flat_fees),
    tiers: tiers(fc.fee_tiers),
    stableTiers: tiers(fc.stable_fee_tiers),
    exoticFlat: rates(fc.exotic_flat_fees),
  };
}

/** GlobalConfig's own rates (used when no FeeConfig applies). */
export function globalRates(gc: GlobalConfigData): FeeRates {
  return {
    lpBps: big(gc.lp_fee_basis_points),
    protocolBps: big(gc.protocol_fee_basis_points),
    creatorBps: big(gc.coin_creator_fee_basis_points),
  };
}

/** Loads a user volume accumulator, or null when it does not exist. */
export function loadUserVolumeAccumulator(
  ledger: LedgerAccess,
  key: PublicKey,
): UserVolumeAccumulatorData | null {
  if (!ledger.getAccount(key)) return null;
  return loadAccount<UserVolumeAccumulatorData>(
    ledger,
    key,
    "UserVolumeAccumulator",
    SWAP_PROGRAM_ID,
    "user_volume_accumulator",
  );
}

/** Writes an accumulator's fields, keeping its size and lamports. */
export function storeUserVolumeAccumulator(
  ledger: LedgerAccess,
  key: PublicKey,
  uva: UserVolumeAccumulatorData,
): void {
  const acc = ledger.getAccount(key)!;
  ledger.setAccount(key, { ...acc, data: encodeAccount("UserVolumeAccumulator", uva, acc.data.length) });
}

/**
 * Creates a program-owned account at a PDA with a System transfer of its rent from `payer`
 * (what Anchor's init does by CPI), then assigns it to the swap program with `data`.
 */
export function createProgramAccount(
  ledger: LedgerAccess,
  payer: PublicKey,
  key: PublicKey,
  data: Uint8Array,
): void {
  const rent = ledger.rentExemptMinimum(data.length);
  const existing = ledger.getAccount(key)?.lamports ?? 0n;
  if (existing < rent) transferLamports(ledger, payer, key, rent - existing);
  const acc = ledger.getAccount(key)!;
  ledger.setAccount(key, { lamports: acc.lamports, data, owner: SWAP_PROGRAM_ID, executable: false });
}

/** Size of a new swap user volume accumulator. */
export const UVA_SIZE = USER_VOLUME_ACCUMULATOR_SIZE;
