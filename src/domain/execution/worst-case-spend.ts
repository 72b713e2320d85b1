/**
 * Issue 29 finding 4: the most lamports one signed transaction can take from the wallets that sign it, read
 * from its instructions (compute budget, the operation, the tip), not from the request body. Pure.
 *
 * Categories (a key's caps count them differently, see decisions.md "Issue 29: spend bounds"):
 * - amount: System transfers and account creations paid by a signer, launch curve buys (`max_sol_cost`,
 *   buy_exact_sol_in's spendable amount), launchswap buys (`max_quote_amount_in`, buy_exact_quote_in's
 *   spendable amount, a deposit's or pool creation's quote amount);
 * - rent: a create's accounts (CREATE_RENT_BOUND_LAMPORTS), each associated-token-account creation, accounts
 *   the programs open for the user (volume accumulators, account extensions);
 * - tip: transfers to the transaction's tip accounts;
 * - fee: 5 000 lamports per signature plus the priority fee (its compute-unit limit × price).
 * An instruction this file does not know (another program, an admin instruction of the launch programs, an
 * unknown System instruction) makes the transaction unbounded: a capped key is refused (deny by default).
 */
import { ComputeBudgetProgram, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { launchProgram, launchSwapProgram } from "../../launch/programs-offline.js";
import { recordedInstructions } from "../../launch/upgrade-idl.js";
import {
  associatedTokenAddress,
  ATA_PROGRAM_ID,
  SPL_TOKEN_PROGRAM_ID,
  TOKEN_2022_ID,
  WSOL_MINT,
} from "../../launch/programs.js";

/** Base fee of one signature. */
export const SIGNATURE_FEE = 5_000n;
/** Upper bound of the rent a create pays (mint, metadata, curve and its token account, creator vault). */
export const CREATE_RENT_BOUND = 30_000_000n;
/**
 * Upper bound of one associated token account's rent: 300 bytes of data (a Token-2022 account with its
 * extensions is 170-200; an SPL one 165), (128 + 300) × 6 960 lamports.
 */
export const ATA_RENT_BOUND = 2_978_880n;
/** Upper bound of the rent of an account a launch program opens or grows for the user. */
export const PROGRAM_ACCOUNT_RENT_BOUND = 10_000_000n;

/** What one transaction of an execution holds, as the assembly is about to sign it. */
export interface SpendableTransaction {
  /** Every instruction, compute budget and tip included, in order. */
  instructions: readonly TransactionInstruction[];
  /** How many signatures the transaction carries (each pays the base fee). */
  signatureCount: number;
  /** Accounts a transfer to counts as a tip (the relay's or the bundle's). */
  tipAccounts?: readonly PublicKey[];
}

/** The worst case of one or several transactions, lamports per category. */
export interface WorstCaseSpend {
  amount: bigint;
  rent: bigint;
  tip: bigint;
  fee: bigint;
  /** True when an instruction's spend cannot be bounded (then the figures are a lower bound only). */
  unbounded: boolean;
}

/** A worst case of nothing. */
export function noSpend(): WorstCaseSpend {
  return { amount: 0n, rent: 0n, tip: 0n, fee: 0n, unbounded: false };
}

/** Every lamport of the worst case. */
export function totalOf(w: WorstCaseSpend): bigint {
  return w.amount + w.rent + w.tip + w.fee;
}

/** The sum of two worst cases. */
export function addSpend(a: WorstCaseSpend, b: WorstCaseSpend): WorstCaseSpend {
  return {
    amount: a.amount + b.amount,
    rent: a.rent + b.rent,
    tip: a.tip + b.tip,
    fee: a.fee + b.fee,
    unbounded: a.unbounded || b.unbounded,
  };
}

/** How a launch program instruction spends: the u64 at `at` of its data, a fixed rent, or nothing. */
type ProgramRule =
  | { spends: "u64"; at: number; wrapped: boolean }
  | { spends: "rent"; lamports: bigint; plusU64At?: number }
  | { spends: "nothing" };

const U64_AT_8 = { spends: "u64", at: 8 } as const;
const U64_AT_16 = { spends: "u64", at: 16 } as const;
const NOTHING: ProgramRule = { spends: "nothing" };
const OPENS_ACCOUNT: ProgramRule = { spends: "rent", lamports: PROGRAM_ACCOUNT_RENT_BOUND };

// Instruction names (IDL) of both launch programs that a managed wallet may sign, with what they can cost it.
// Anything else (admin instructions) is unknown, hence unbounded. `wrapped`: paid from the user's WSOL account,
// which the same transaction funds by a transfer (counted once: see `spendOf`).
const LAUNCH_RULES: Record<string, ProgramRule> = {
  buy: { ...U64_AT_16, wrapped: false },
  buyV2: { ...U64_AT_16, wrapped: false },
  buyExactSolIn: { ...U64_AT_8, wrapped: false },
  buyExactQuoteInV2: { ...U64_AT_8, wrapped: false },
  create: { spends: "rent", lamports: CREATE_RENT_BOUND },
  createV2: { spends: "rent", lamports: CREATE_RENT_BOUND },
  sell: NOTHING,
  sellV2: NOTHING,
  claimCashback: NOTHING,
  claimCashbackV2: NOTHING,
  collectCreatorFee: NOTHING,
  collectCreatorFeeV2: NOTHING,
  syncUserVolumeAccumulator: NOTHING,
  closeUserVolumeAccumulator: NOTHING,
  extendAccount: OPENS_ACCOUNT,
  initUserVolumeAccumulator: OPENS_ACCOUNT,
};
const SWAP_RULES: Record<string, ProgramRule> = {
  buy: { ...U64_AT_16, wrapped: true },
  buyExactQuoteIn: { ...U64_AT_8, wrapped: true },
  // deposit(lp_out, max_base_in, max_quote_in); create_pool(index u16, base_in, quote_in, …).
  deposit: { spends: "u64", at: 24, wrapped: true },
  createPool: { spends: "rent", lamports: PROGRAM_ACCOUNT_RENT_BOUND, plusU64At: 18 },
  sell: NOTHING,
  claimCashback: NOTHING,
  collectCoinCreatorFee: NOTHING,
  syncUserVolumeAccumulator: NOTHING,
  closeUserVolumeAccumulator: NOTHING,
  extendAccount: OPENS_ACCOUNT,
  initUserVolumeAccumulator: OPENS_ACCOUNT,
};

// The October 2026 instructions (recorded IDL, snake_case names). A v3 / v2 trade may also grow an older curve
// or pool (the trader pays the rent difference): sells count that as rent; buys count their amount, as the
// legacy buys do.
const LAUNCH_UPGRADE_RULES: Record<string, ProgramRule> = {
  buy_v3: { ...U64_AT_16, wrapped: false },
  buy_exact_quote_in_v3: { ...U64_AT_8, wrapped: false },
  sell_v3: OPENS_ACCOUNT,
  sweep_protocol_fee: OPENS_ACCOUNT,
  sweep_creator_fee: OPENS_ACCOUNT,
};
const SWAP_UPGRADE_RULES: Record<string, ProgramRule> = {
  buy_v2: { ...U64_AT_16, wrapped: true },
  buy_exact_quote_in_v2: { ...U64_AT_8, wrapped: true },
  sell_v2: OPENS_ACCOUNT,
  sweep_protocol_fee: OPENS_ACCOUNT,
  sweep_creator_fee: OPENS_ACCOUNT,
};

/** Discriminator (its 8 bytes as a u64 LE) → rule. */
function rulesByDiscriminator(
  idl: { instructions: readonly { name: string; discriminator: readonly number[] }[] },
  rules: Record<string, ProgramRule>,
): Map<bigint, ProgramRule> {
  const out = new Map<bigint, ProgramRule>();
  for (const ix of idl.instructions) {
    const rule = rules[ix.name];
    if (rule !== undefined) out.set(Buffer.from(ix.discriminator).readBigUInt64LE(0), rule);
  }
  return out;
}
// Compared with `equals` (32 bytes), not by base58 text: encoding an address costs more than the whole check.
const PROGRAM_RULES: readonly (readonly [PublicKey, Map<bigint, ProgramRule>])[] = [
  [
    launchProgram.programId,
    new Map([
      ...rulesByDiscriminator(launchProgram.idl, LAUNCH_RULES),
      ...rulesByDiscriminator({ instructions: [...recordedInstructions("launch")] }, LAUNCH_UPGRADE_RULES),
    ]),
  ],
  [
    launchSwapProgram.programId,
    new Map([
      ...rulesByDiscriminator(launchSwapProgram.idl, SWAP_RULES),
      ...rulesByDiscriminator({ instructions: [...recordedInstructions("launchswap")] }, SWAP_UPGRADE_RULES),
    ]),
  ],
];

const SYSTEM = SystemProgram.programId;
const COMPUTE_BUDGET = ComputeBudgetProgram.programId;
const TOKEN_PROGRAMS = [SPL_TOKEN_PROGRAM_ID, TOKEN_2022_ID];

/** Whether two addresses are equal: the same instance (builders share them) or the same 32 bytes. */
function same(a: PublicKey, b: PublicKey): boolean {
  return a === b || a.equals(b);
}

/** u64 little-endian at `at`, or null when the data is too short. */
function u64(data: Buffer, at: number): bigint | null {
  return data.length >= at + 8 ? data.readBigUInt64LE(at) : null;
}

/** Whether `to` is `from`'s own WSOL account (a wrap: the SOL stays the wallet's until a swap spends it). */
function isOwnWsolAccount(from: PublicKey, to: PublicKey): boolean {
  return TOKEN_PROGRAMS.some((p) => same(associatedTokenAddress(from, WSOL_MINT, p), to));
}

/** Running figures of one transaction while its instructions are read. */
interface Tally extends WorstCaseSpend {
  /** Plain transfers (not tips), classified once all instructions are read: wraps matter only beside a swap. */
  transfers: { from: PublicKey; to: PublicKey; lamports: bigint }[];
  wrappedSpends: bigint;
  unitLimit: bigint;
  unitPrice: bigint;
}

function systemSpend(ix: TransactionInstruction, t: Tally, tips: readonly PublicKey[]): void {
  const data = ix.data;
  const kind = data.length >= 4 ? data.readUInt32LE(0) : -1;
  const from = ix.keys[0]?.pubkey;
  const to = ix.keys[1]?.pubkey;
  // Transfer (2) and TransferWithSeed (11): u64 at 4; CreateAccount (0): lamports at 4; CreateAccountWithSeed
  // (3): lamports after base, seed and its length (read from the end: lamports, space, owner).
  let lamports: bigint | null = null;
  if (kind === 2 || kind === 11 || kind === 0) lamports = u64(data, 4);
  else if (kind === 3) lamports = data.length >= 52 ? data.readBigUInt64LE(data.length - 48) : null;
  else if (kind === 1 || kind === 8 || kind === 9) return; // Assign, Allocate, AllocateWithSeed: no lamports.
  if (lamports === null || from === undefined || to === undefined) {
    t.unbounded = true;
    return;
  }
  if (kind === 2 && tips.some((a) => same(a, to))) t.tip += lamports;
  else if (kind === 2) t.transfers.push({ from, to, lamports });
  else t.amount += lamports;
}

function programSpend(ix: TransactionInstruction, rules: Map<bigint, ProgramRule>, t: Tally): void {
  const rule = ix.data.length >= 8 ? rules.get(ix.data.readBigUInt64LE(0)) : undefined;
  if (rule === undefined) {
    t.unbounded = true;
    return;
  }
  if (rule.spends === "nothing") return;
  if (rule.spends === "rent") {
    t.rent += rule.lamports;
    if (rule.plusU64At === undefined) return;
    const quote = u64(ix.data, rule.plusU64At);
    if (quote === null) t.unbounded = true;
    else t.wrappedSpends += quote;
    return;
  }
  const lamports = u64(ix.data, rule.at);
  if (lamports === null) t.unbounded = true;
  else if (rule.wrapped) t.wrappedSpends += lamports;
  else t.amount += lamports;
}

function computeBudget(ix: TransactionInstruction, t: Tally): void {
  const op = ix.data[0];
  if (op === 2 && ix.data.length >= 5) t.unitLimit = BigInt(ix.data.readUInt32LE(1));
  else if (op === 3 && ix.data.length >= 9) t.unitPrice = ix.data.readBigUInt64LE(1);
  // Heap frame and loaded-accounts limits cost nothing by themselves.
  else if (op !== 1 && op !== 4) t.unbounded = true;
}

/** The worst case of one transaction (see the file comment). */
export function transactionWorstCase(tx: SpendableTransaction): WorstCaseSpend {
  const tips = tx.tipAccounts ?? [];
  const t: Tally = {
    ...noSpend(),
    transfers: [],
    wrappedSpends: 0n,
    // The runtime's default limit without a SetComputeUnitLimit: 200 000 per instruction, at most 1.4 M.
    unitLimit: BigInt(Math.min(1_400_000, 200_000 * tx.instructions.length)),
    unitPrice: 0n,
  };
  for (const ix of tx.instructions) {
    const program = ix.programId;
    if (same(program, COMPUTE_BUDGET)) computeBudget(ix, t);
    else if (same(program, SYSTEM)) systemSpend(ix, t, tips);
    else if (same(program, ATA_PROGRAM_ID)) t.rent += ATA_RENT_BOUND;
    // Token instructions move tokens, not SOL (a WSOL transfer spends what a wrap put there: counted there).
    else if (TOKEN_PROGRAMS.some((p) => same(p, program))) continue;
    else {
      const rules = PROGRAM_RULES.find(([id]) => same(id, program))?.[1];
      if (rules === undefined) t.unbounded = true;
      else programSpend(ix, rules, t);
    }
  }
  // A wrap and the swap that spends it are the same SOL: the larger of the two is what can leave. Without a
  // swap in the transaction a transfer to the wallet's own WSOL account counts like any other.
  let wraps = 0n;
  for (const { from, to, lamports } of t.transfers) {
    if (t.wrappedSpends > 0n && isOwnWsolAccount(from, to)) wraps += lamports;
    else t.amount += lamports;
  }
  const wrapped = wraps > t.wrappedSpends ? wraps : t.wrappedSpends;
  const priority = (t.unitLimit * t.unitPrice + 999_999n) / 1_000_000n;
  return {
    amount: t.amount + wrapped,
    rent: t.rent,
    tip: t.tip,
    fee: BigInt(tx.signatureCount) * SIGNATURE_FEE + priority,
    unbounded: t.unbounded,
  };
}

/** The worst case of an execution's transactions together (a bundle's legs, a consolidation's sources). */
export function worstCaseSpend(txs: readonly SpendableTransaction[]): WorstCaseSpend {
  return txs.reduce((sum, tx) => addSpend(sum, transactionWorstCase(tx)), noSpend());
}
