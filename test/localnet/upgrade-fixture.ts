/**
 * Shared setup of the October 2026 upgrade tests: a ledger with both emulated programs of a chosen
 * generation, instructions built from the IDL facts recorded in fixtures/ (not from the localnet's
 * own table, so the two are checked against each other), and event readers.
 */
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import { createLedger, type Ledger } from "../../localnet/ledger/index.js";
import { emulatedPrograms, installGenesis } from "../../localnet/programs/index.js";
import type { ProgramGeneration } from "../../localnet/programs/generation.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  creatorVaultAddress,
  curveAddress,
  EVENT_AUTHORITY_ADDRESS,
  FEE_CONFIG_ADDRESS,
  FEE_RECIPIENTS,
  GLOBAL_ADDRESS,
  LAUNCH_PROGRAM_ID,
  readCurve,
  userVolumeAccumulatorAddress,
} from "../../localnet/programs/launch/index.js";
import {
  GLOBAL_CONFIG,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_PROGRAM_ID,
  swapUserVolumeAccumulatorPda,
} from "../../localnet/programs/launchswap/addresses.js";
import { decodeAccount, type PoolData } from "../../localnet/programs/launchswap/codec.js";
import { decodeUpgradeEvent } from "../../localnet/programs/upgrade/events.js";
import fixture from "./fixtures/idl-2026-10-instructions.json" with { type: "json" };

/** Program of a recorded instruction. */
export type FixtureProgram = "launch" | "launchswap";

/** The recorded IDL facts of one instruction. */
export interface FixtureInstruction {
  discriminator: number[];
  accounts: string[];
  args: [string, string][];
}

/** The recorded instruction `name` of `program`. */
export function recorded(program: FixtureProgram, name: string): FixtureInstruction {
  const ix = (fixture[program].instructions as unknown as Record<string, FixtureInstruction>)[name];
  if (!ix) throw new Error(`fixture has no ${program}.${name}`);
  return ix;
}

/** Every recorded instruction. */
export function recordedAll(): { program: FixtureProgram; name: string; ix: FixtureInstruction }[] {
  return (["launch", "launchswap"] as const).flatMap((program) =>
    Object.entries(fixture[program].instructions as unknown as Record<string, FixtureInstruction>).map(
      ([name, ix]) => ({
        program,
        name,
        ix,
      }),
    ),
  );
}

/** Builds `program`'s instruction `name` from the recorded account order and argument layout. */
export function fixtureIx(
  program: FixtureProgram,
  name: string,
  keys: Record<string, PublicKey>,
  args: Record<string, bigint | boolean | null> = {},
): TransactionInstruction {
  const r = recorded(program, name);
  const parts = [Buffer.from(r.discriminator)];
  for (const [arg, kind] of r.args) {
    const v = args[arg];
    if (kind === "u64") {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(v as bigint);
      parts.push(b);
    } else if (v !== null && v !== undefined) parts.push(Buffer.from([v ? 1 : 0]));
  }
  return new TransactionInstruction({
    programId: program === "launch" ? LAUNCH_PROGRAM_ID : SWAP_PROGRAM_ID,
    keys: r.accounts.map((entry) => {
      const [n, flags = ""] = entry.split(":");
      const pubkey = keys[n!];
      if (!pubkey) throw new Error(`${name}: no key for ${n}`);
      return { pubkey, isWritable: flags.includes("W"), isSigner: flags.includes("S") };
    }),
    data: Buffer.concat(parts),
  });
}

/** A ledger with both programs of `generation` and their genesis (cashback creation on, for 6094 tests). */
export function upgradeLedger(generation: ProgramGeneration = "2026-10"): Ledger {
  const ledger = createLedger({ programs: emulatedPrograms({ cashbackCreation: true, generation }) });
  installGenesis(ledger, { cashbackCreation: true });
  return ledger;
}

const t22Ata = (owner: PublicKey, mint: PublicKey) =>
  getAssociatedTokenAddressSync(mint, owner, true, TOKEN_2022_PROGRAM_ID);
const wsolAta = (owner: PublicKey) =>
  getAssociatedTokenAddressSync(NATIVE_MINT, owner, true, TOKEN_PROGRAM_ID);

/** The buyback recipient the tests pass (any of the eight). */
export const BUYBACK = BUYBACK_FEE_RECIPIENTS[3]!;

/** Accounts of a curve v3 trade of a Token-2022 SOL-paired coin. */
export function curveV3Keys(mint: PublicKey, user: PublicKey): Record<string, PublicKey> {
  const curve = curveAddress(mint);
  return {
    global: GLOBAL_ADDRESS,
    base_mint: mint,
    quote_mint: NATIVE_MINT,
    base_token_program: TOKEN_2022_PROGRAM_ID,
    quote_token_program: TOKEN_PROGRAM_ID,
    bonding_curve: curve,
    associated_base_bonding_curve: t22Ata(curve, mint),
    associated_quote_bonding_curve: wsolAta(curve),
    user,
    associated_base_user: t22Ata(user, mint),
    associated_quote_user: wsolAta(user),
    user_volume_accumulator: userVolumeAccumulatorAddress(user),
    fee_config: FEE_CONFIG_ADDRESS,
    buyback_fee_recipient: BUYBACK,
    system_program: SystemProgram.programId,
    event_authority: EVENT_AUTHORITY_ADDRESS,
    program: LAUNCH_PROGRAM_ID,
  };
}

/** The user's base token account create (v3 trades need it to exist). */
export function createUserAta(mint: PublicKey, user: PublicKey): TransactionInstruction {
  return createAssociatedTokenAccountIdempotentInstruction(
    user,
    t22Ata(user, mint),
    user,
    mint,
    TOKEN_2022_PROGRAM_ID,
  );
}

/** A v3 curve instruction. */
export function curveV3Ix(
  name: "buy_v3" | "buy_exact_quote_in_v3" | "sell_v3",
  mint: PublicKey,
  user: PublicKey,
  args: Record<string, bigint | boolean | null>,
): TransactionInstruction {
  return fixtureIx("launch", name, curveV3Keys(mint, user), args);
}

/** A curve sweep; the recipient defaults to the first fee recipient / the creator vault. */
export function curveSweepIx(
  ledger: Ledger,
  kind: "protocol" | "creator",
  mint: PublicKey,
  payer: PublicKey,
  recipient?: PublicKey,
): TransactionInstruction {
  const curve = curveAddress(mint);
  const creator = readCurve(ledger, mint)!.creator;
  const to = recipient ?? (kind === "protocol" ? FEE_RECIPIENTS[0]! : creatorVaultAddress(creator));
  return fixtureIx("launch", kind === "protocol" ? "sweep_protocol_fee" : "sweep_creator_fee", {
    payer,
    global: GLOBAL_ADDRESS,
    base_mint: mint,
    quote_mint: NATIVE_MINT,
    quote_token_program: TOKEN_PROGRAM_ID,
    associated_token_program: ASSOCIATED_TOKEN_PROGRAM_ID,
    system_program: SystemProgram.programId,
    bonding_curve: curve,
    associated_quote_bonding_curve: wsolAta(curve),
    recipient: to,
    associated_quote_recipient: wsolAta(to),
    event_authority: EVENT_AUTHORITY_ADDRESS,
    program: LAUNCH_PROGRAM_ID,
  });
}

/** The pool account as the swap SDK IDL decodes it. */
export function poolOf(ledger: Ledger, pool: PublicKey): PoolData {
  return decodeAccount<PoolData>("Pool", ledger.getAccount(pool)!.data);
}

/** Accounts of a swap v2 trade on a WSOL pool. */
export function swapV2Keys(ledger: Ledger, pool: PublicKey, user: PublicKey): Record<string, PublicKey> {
  const p = poolOf(ledger, pool);
  return {
    pool,
    user,
    global_config: GLOBAL_CONFIG,
    base_mint: p.base_mint,
    quote_mint: p.quote_mint,
    user_base_token_account: t22Ata(user, p.base_mint),
    user_quote_token_account: wsolAta(user),
    pool_base_token_account: p.pool_base_token_account,
    pool_quote_token_account: p.pool_quote_token_account,
    base_token_program: TOKEN_2022_PROGRAM_ID,
    quote_token_program: TOKEN_PROGRAM_ID,
    system_program: SystemProgram.programId,
    user_volume_accumulator: swapUserVolumeAccumulatorPda(user),
    fee_config: SWAP_FEE_CONFIG,
    buyback_fee_recipient: wsolAta(BUYBACK),
    event_authority: SWAP_EVENT_AUTHORITY,
    program: SWAP_PROGRAM_ID,
  };
}

/** A pool sweep to the first protocol fee recipient / the coin creator vault authority. */
export function poolSweepIx(
  ledger: Ledger,
  kind: "protocol" | "creator",
  pool: PublicKey,
  payer: PublicKey,
): TransactionInstruction {
  const p = poolOf(ledger, pool);
  const recipient =
    kind === "protocol"
      ? FEE_RECIPIENTS[0]!
      : PublicKey.findProgramAddressSync(
          [Buffer.from("creator_vault"), p.coin_creator.toBuffer()],
          SWAP_PROGRAM_ID,
        )[0];
  return fixtureIx("launchswap", kind === "protocol" ? "sweep_protocol_fee" : "sweep_creator_fee", {
    payer,
    global_config: GLOBAL_CONFIG,
    pool,
    quote_mint: p.quote_mint,
    quote_token_program: TOKEN_PROGRAM_ID,
    pool_quote_token_account: p.pool_quote_token_account,
    recipient,
    recipient_token_account: wsolAta(recipient),
    system_program: SystemProgram.programId,
    associated_token_program: ASSOCIATED_TOKEN_PROGRAM_ID,
    event_authority: SWAP_EVENT_AUTHORITY,
    program: SWAP_PROGRAM_ID,
  });
}

/** A funded wallet. */
export function wallet(ledger: Ledger, sol = 1_000n): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, sol * 1_000_000_000n);
  return k;
}

/** Every event of a transaction's logs: the curve program's (SDK IDL) and the upgrade's new ones. */
export function eventsOf(logs: string[]): { name: string; data: Record<string, unknown>; raw: Buffer }[] {
  const coder = launchSdk.getPumpProgram(null as never).coder;
  return logs
    .filter((l) => l.startsWith("Program data: "))
    .flatMap((l) => {
      const b64 = l.slice("Program data: ".length);
      const raw = Buffer.from(b64, "base64");
      const upgrade = decodeUpgradeEvent(l);
      if (upgrade) return [{ ...upgrade, raw }];
      const e = coder.events.decode(b64);
      return e ? [{ name: e.name, data: e.data as Record<string, unknown>, raw }] : [];
    });
}

/** A u64 at the end of an event's bytes (an appended field such as `creator_fee_unclaimed`). */
export function lastU64(raw: Buffer): bigint {
  return raw.readBigUInt64LE(raw.length - 8);
}
