/**
 * The curve program's `migrate_v2` (in the IDL of both generations): the quote-aware migration, 27
 * accounts checked against the IDL (seeds re-derived), opening the canonical pool exactly like
 * `migrate` (migrate.ts `openPool`). After a synthetic migration it opens the pool on the reserves
 * the crossing buy left behind.
 */
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { InstructionContext } from "../types.js";
import { acct, checkAccounts, idlInstruction } from "../launch/account-checks.js";
import type { Exec } from "../launch/exec-support.js";
import { loadCurve, loadGlobal } from "../launch/exec-support.js";
import { anchorFail, programFail } from "../launch/failures.js";
import { pumpInstructionCoder } from "../launch/idl-coder.js";
import { EVENT_AUTHORITY_ADDRESS, GLOBAL_ADDRESS } from "../launch/pda.js";
import {
  GLOBAL_CONFIG,
  LAUNCH_PROGRAM_ID,
  NATIVE_MINT,
  SWAP_EVENT_AUTHORITY,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  bondingCurvePda,
  lpMintPda,
  poolAuthorityPda,
  poolPda,
} from "./addresses.js";
import { openPool } from "./migrate.js";

/** BondingCurveNotComplete. */
const NOT_COMPLETE = 6006;

/** Executes `migrate_v2`. */
export function executeMigrateV2(ctx: InstructionContext): void {
  const x: Exec = { ledger: ctx.ledger, log: (l) => ctx.log(l), programId: ctx.programId };
  x.log("Program log: Instruction: MigrateV2");
  const checked = checkAccounts(idlInstruction("migrate_v2"), ctx.accounts, x.programId, x.ledger, x.log);
  const key = (n: string) => acct(checked, n).pubkey;
  const global = loadGlobal(x, GLOBAL_ADDRESS);
  if (!key("withdraw_authority").equals(global.withdrawAuthority))
    programFail(x.log, 6000, "withdraw_authority");
  if (!key("pump_amm_event_authority").equals(SWAP_EVENT_AUTHORITY))
    anchorFail(x.log, "ConstraintSeeds", "pump_amm_event_authority");
  const mint = key("base_mint");
  const curveKey = key("bonding_curve");
  const { curve, data: curveData } = loadCurve(x, curveKey);
  if (!curve.complete || curve.realTokenReserves !== 0n || curve.virtualTokenReserves === 0n)
    programFail(x.log, NOT_COMPLETE);
  if (!curve.quoteMint.equals(PublicKey.default))
    throw new Error("only SOL-quoted curves can be migrated on the localnet");
  if (!key("quote_mint").equals(NATIVE_MINT)) anchorFail(x.log, "ConstraintAddress", "quote_mint");
  openPool(x, { user: key("user"), mint, curveKey, curve, curveData, global, poolKey: key("pool") });
}

/** The `migrate_v2` instruction of a SOL-paired Token-2022 coin, accounts in the IDL's order. */
export function migrateV2Instruction(
  mint: PublicKey,
  user: PublicKey,
  withdrawAuthority: PublicKey,
): TransactionInstruction {
  const curve = bondingCurvePda(mint);
  const authority = poolAuthorityPda(mint);
  const [pool] = poolPda(0, authority, mint, NATIVE_MINT);
  const t22 = TOKEN_2022_PROGRAM_ID;
  const byName: Record<string, PublicKey> = {
    global: GLOBAL_ADDRESS,
    withdraw_authority: withdrawAuthority,
    base_mint: mint,
    quote_mint: NATIVE_MINT,
    bonding_curve: curve,
    associated_base_bonding_curve: ata(curve, mint, t22),
    associated_quote_bonding_curve: ata(curve, NATIVE_MINT, TOKEN_PROGRAM_ID),
    user,
    pool,
    pool_authority: authority,
    pool_authority_mint_account: ata(authority, mint, t22),
    pool_authority_quote_account: ata(authority, NATIVE_MINT, TOKEN_PROGRAM_ID),
    amm_global_config: GLOBAL_CONFIG,
    lp_mint: lpMintPda(pool),
    user_pool_token_account: ata(authority, lpMintPda(pool), t22),
    pool_base_token_account: ata(pool, mint, t22),
    pool_quote_token_account: ata(pool, NATIVE_MINT, TOKEN_PROGRAM_ID),
    base_token_program: t22,
    quote_token_program: TOKEN_PROGRAM_ID,
    pump_amm_event_authority: SWAP_EVENT_AUTHORITY,
    event_authority: EVENT_AUTHORITY_ADDRESS,
    program: LAUNCH_PROGRAM_ID,
  };
  const keys = idlInstruction("migrate_v2").accounts.map((a) => {
    const pubkey = a.address ? new PublicKey(a.address) : byName[a.name];
    if (!pubkey) throw new Error(`migrate_v2: no address for account ${a.name}`);
    return { pubkey, isSigner: a.signer === true, isWritable: a.writable === true };
  });
  return new TransactionInstruction({
    programId: LAUNCH_PROGRAM_ID,
    keys,
    data: pumpInstructionCoder.encode("migrateV2", {}),
  });
}
