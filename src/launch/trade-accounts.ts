/**
 * The single account read of a trade and its interpretation: which venue trades the mint (routing),
 * and everything the quote and the instruction builders need from the chain. Global, FeeConfig and
 * swap GlobalConfig are not read here: they come from the chain caches.
 */
import { BONDING_CURVE, LAUNCHSWAP } from "../core/venues.js";
import { PublicKey } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "./spl-token.js";
import { LAUNCH, badRequest } from "../core/errors.js";
import {
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  WSOL_MINT,
  associatedTokenAddress,
  bondingCurveAddress,
  canonicalPoolAddress,
  isTokenProgram,
  poolVaultAddresses,
} from "./programs.js";
import { assertAligned, type ReadAccount, type ReadResult } from "./read-account.js";
import {
  decodeBondingCurveOnce,
  decodedOnce,
  decodeMint,
  decodePool,
  decodeTokenAccount,
  toBuffer,
  type BondingCurveState,
  type MintState,
  type PoolState,
  type TokenAccountState,
} from "./state.js";

// Fixed order of the read; the owner of the mint (its token program) is unknown before the read,
// so every token account derived from the mint is read under both token programs.
const SLOTS = [
  "mint",
  "curve",
  "userAta2022",
  "userAtaSpl",
  "pool",
  "poolBase2022",
  "poolBaseSpl",
  "poolQuote",
  "userWsol",
  // The wallet itself: its lamports let a trade refuse what it cannot pay before sending (issue 22).
  "user",
] as const;
type Slot = (typeof SLOTS)[number];
/** One account of a trade read, by its role. */
export type TradeReadSlot = Slot;

/** The addresses of one trade read, in `addresses` order. */
export interface TradeReadPlan {
  mint: PublicKey;
  user: PublicKey;
  /** The pool the request named, or null when routing decides. */
  explicitPool: PublicKey | null;
  keys: Readonly<Record<Slot, PublicKey>>;
  /** Pass these to ONE getMultipleAccounts call. */
  addresses: PublicKey[];
  /** `addresses` in base58, same order (the warm state is keyed by text; encoded once per plan). */
  addressTexts: readonly string[];
}

/** The base58 text of a plan's slot (its mint, its user, or any other account it reads). */
export function planText(plan: TradeReadPlan, slot: TradeReadSlot): string {
  return plan.addressTexts[SLOTS.indexOf(slot)]!;
}

/** The machine-readable `state` of a trade refused between a curve's completion and its migration. */
export const AWAITING_MIGRATION = "awaiting_migration";

/** What both venues share: the mint and the user's holdings. */
export interface TradeReadCommon {
  mint: PublicKey;
  user: PublicKey;
  /** Owner of the mint account: the token program of every base-token instruction. */
  tokenProgram: PublicKey;
  mintSupply: bigint;
  decimals: number;
  userTokenAccount: PublicKey;
  userAtaExists: boolean;
  /** 0 when the user's token account does not exist. */
  userTokenBalance: bigint;
  userWsolAccount: PublicKey;
  userWsolExists: boolean;
  /** The wallet's lamports at the read (0 when the account does not exist; absent on hand-made reads). */
  userLamports?: bigint;
}

/** A trade routed to the bonding curve. */
export interface CurveTradeRead extends TradeReadCommon {
  venue: typeof BONDING_CURVE;
  curveAddress: PublicKey;
  curve: BondingCurveState;
}

/** A trade routed to a swap pool. */
export interface SwapTradeRead extends TradeReadCommon {
  venue: typeof LAUNCHSWAP;
  poolAddress: PublicKey;
  pool: PoolState;
  /** Length of the pool account's data (the SDK prepends extend_account below 300 bytes). */
  poolDataLength: number;
  poolReserves: { base: bigint; quote: bigint };
  /** The mint's bonding curve when one was read (null for an explicit pool or a non-curve mint). */
  curve: BondingCurveState | null;
}

/** The interpreted trade read. */
export type TradeRead = CurveTradeRead | SwapTradeRead;

/** Addresses for the one read a trade needs (curve, mint, pool and vaults, the user's token accounts). */
export function tradeReadPlan(args: {
  mint: PublicKey;
  user: PublicKey;
  pool?: PublicKey | null;
}): TradeReadPlan {
  const { mint, user } = args;
  const explicitPool = args.pool ?? null;
  // With an explicit pool the vaults are derived from the request's mint and verified after decoding.
  const pool = explicitPool ?? canonicalPoolAddress(mint);
  // Each vault address is a PDA search: derive the shared quote vault once, not once per base program.
  const splVaults = poolVaultAddresses(pool, mint, TOKEN_PROGRAM_ID);
  const keys: Record<Slot, PublicKey> = {
    mint,
    curve: bondingCurveAddress(mint),
    userAta2022: associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
    userAtaSpl: associatedTokenAddress(user, mint, TOKEN_PROGRAM_ID),
    pool,
    poolBase2022: associatedTokenAddress(pool, mint, TOKEN_2022_PROGRAM_ID),
    poolBaseSpl: splVaults.base,
    poolQuote: splVaults.quote,
    userWsol: associatedTokenAddress(user, WSOL_MINT, TOKEN_PROGRAM_ID),
    user,
  };
  const addresses = SLOTS.map((s) => keys[s]);
  return { mint, user, explicitPool, keys, addresses, addressTexts: addresses.map((a) => a.toBase58()) };
}

/** Routes the trade and extracts its chain inputs from the read; throws a 400 for a mint or pool it cannot trade. */
export function interpretTradeRead(plan: TradeReadPlan, accounts: ReadResult): TradeRead {
  assertAligned(plan.addresses, accounts);
  const at = (slot: Slot): ReadAccount | null => accounts[SLOTS.indexOf(slot)] ?? null;

  if (plan.explicitPool !== null) {
    const pool = checkedPool(at("pool"), plan.mint, true);
    return swapRead(plan, at, pool, null);
  }

  const curve = launchCurve(at("curve"));
  // SOL curves store the zero key (some WSOL); other quotes need the v2 instructions we do not build.
  if (curve !== null && !curve.quoteMint.equals(PublicKey.default) && !curve.quoteMint.equals(WSOL_MINT)) {
    throw badRequest(LAUNCH.curveNotSolQuoted);
  }
  if (curve !== null && !curve.complete) {
    return { venue: BONDING_CURVE, ...common(plan, at), curveAddress: plan.keys.curve, curve };
  }
  const poolAccount = at("pool");
  if (poolAccount === null) {
    common(plan, at); // a missing mint is the more basic error
    // Completed and not migrated yet (the window a synthetic migration opens until migrate_v2): a state the
    // caller can test for, not a generic failure. The pool is read with the curve, so the first trade after
    // the migration routes to it.
    if (curve !== null) throw badRequest(LAUNCH.notMigrated, { state: AWAITING_MIGRATION });
    throw badRequest(LAUNCH.notLaunchToken);
  }
  return swapRead(plan, at, checkedPool(poolAccount, plan.mint, false), curve);
}

// Decoded states by the account data object they came from, one map per decoder (curves: state.ts). The warm state hands out the
// same data object until the account changes (a change is a new object: nothing writes into account bytes), so
// a repeat trade decodes nothing. A decode is a pure function of the bytes and of the owner, which is fixed for
// one account object. The states are shared between requests, so frozen.
const decodedMints = new WeakMap<object, MintState>();
const decodedTokenAccounts = new WeakMap<object, TokenAccountState>();

function common(plan: TradeReadPlan, at: (slot: Slot) => ReadAccount | null): TradeReadCommon {
  const mintAccount = at("mint");
  if (mintAccount === null) throw badRequest(LAUNCH.mintNotFound);
  if (!isTokenProgram(mintAccount.owner)) throw badRequest(LAUNCH.unsupportedMint);
  const tokenProgram = mintAccount.owner;
  const mint = decodedOnce(decodedMints, mintAccount.data, () => decodeMint(mintAccount.data, tokenProgram));
  const is2022 = tokenProgram.equals(TOKEN_2022_PROGRAM_ID);
  const userTokenAccount = is2022 ? plan.keys.userAta2022 : plan.keys.userAtaSpl;
  const userAta = tokenAccountOf(at(is2022 ? "userAta2022" : "userAtaSpl"), tokenProgram);
  const userWsol = tokenAccountOf(at("userWsol"), TOKEN_PROGRAM_ID);
  return {
    mint: plan.mint,
    user: plan.user,
    tokenProgram,
    mintSupply: mint.supply,
    decimals: mint.decimals,
    userTokenAccount,
    userAtaExists: userAta !== null,
    userTokenBalance: userAta?.amount ?? 0n,
    userWsolAccount: plan.keys.userWsol,
    userWsolExists: userWsol !== null,
    userLamports: BigInt(at("user")?.lamports ?? 0),
  };
}

// A token account counts as existing only when the expected token program owns it.
function tokenAccountOf(account: ReadAccount | null, tokenProgram: PublicKey) {
  if (account === null || !account.owner.equals(tokenProgram)) return null;
  return decodedOnce(decodedTokenAccounts, account.data, () =>
    decodeTokenAccount(account.data, tokenProgram),
  );
}

function launchCurve(account: ReadAccount | null): BondingCurveState | null {
  if (account === null || !account.owner.equals(LAUNCH_PROGRAM_ID)) return null;
  try {
    return decodeBondingCurveOnce(account.data);
  } catch {
    throw badRequest(LAUNCH.curveInvalid);
  }
}

function checkedPool(account: ReadAccount | null, mint: PublicKey, explicit: boolean): PoolState {
  if (account === null) throw badRequest(explicit ? LAUNCH.poolNotFound : LAUNCH.notLaunchToken);
  if (!account.owner.equals(LAUNCH_SWAP_PROGRAM_ID)) throw badRequest(LAUNCH.notSwapPool);
  let pool: PoolState;
  try {
    pool = decodePool(account.data);
  } catch {
    throw badRequest(LAUNCH.notSwapPool);
  }
  if (!pool.quoteMint.equals(WSOL_MINT)) throw badRequest(LAUNCH.poolNotSolQuoted);
  if (!pool.baseMint.equals(mint)) throw badRequest(LAUNCH.poolMintMismatch);
  return pool;
}

function swapRead(
  plan: TradeReadPlan,
  at: (slot: Slot) => ReadAccount | null,
  pool: PoolState,
  curve: BondingCurveState | null,
): SwapTradeRead {
  const base = common(plan, at);
  const is2022 = base.tokenProgram.equals(TOKEN_2022_PROGRAM_ID);
  const baseSlot: Slot = is2022 ? "poolBase2022" : "poolBaseSpl";
  // The vaults were read at their ATA addresses; a pool keeping its tokens elsewhere would need a second read.
  if (
    !pool.poolBaseTokenAccount.equals(plan.keys[baseSlot]) ||
    !pool.poolQuoteTokenAccount.equals(plan.keys.poolQuote)
  ) {
    throw badRequest(LAUNCH.poolVaultsUnexpected);
  }
  const baseVault = tokenAccountOf(at(baseSlot), base.tokenProgram);
  const quoteVault = tokenAccountOf(at("poolQuote"), TOKEN_PROGRAM_ID);
  if (baseVault === null || quoteVault === null) throw badRequest(LAUNCH.poolVaultsUnexpected);
  const poolAccount = at("pool");
  return {
    venue: LAUNCHSWAP,
    ...base,
    poolAddress: plan.keys.pool,
    pool,
    poolDataLength: poolAccount === null ? 0 : toBuffer(poolAccount.data).length,
    poolReserves: { base: baseVault.amount, quote: quoteVault.amount },
    curve,
  };
}
