/** The reference names of the launch programs' accounts, and one instruction shown as build_ixs.out shows it. */
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { launchSdk, launchSwapSdk } from "../../../src/launch/sdk.js";
import {
  associatedTokenAddress,
  bondingCurveAddress,
  bondingCurveV2Address,
  canonicalPoolAddress,
  creatorVaultAddress,
  launchUserVolumeAccumulator,
  poolV2Address,
  poolVaultAddresses,
  swapCashbackWsolAccount,
  swapCreatorVaultAuthority,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import { key } from "../../helpers/fixtures.js";

export const Z = PublicKey.default;
export const user = key(1);
export const creator = key(2);
export const mint = key(3);
export const FEE = new PublicKey("62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV");
export const RESERVED = key(5);
export const BUYBACK = new PublicKey("5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD");
export const first = () => 0;

// Names as in the reference's build_ixs.out, so expected lists read like that file.
const names = new Map<string, string>();
const name = (k: PublicKey, n: string) => names.set(k.toBase58(), n);
name(user, "USER");
name(creator, "CREATOR");
name(mint, "MINT");
name(FEE, "FEE_RECIPIENT");
name(RESERVED, "RESERVED_FEE_RECIPIENT");
name(BUYBACK, "BUYBACK_RECIPIENT");
name(TOKEN_PROGRAM_ID, "TOKEN_PROGRAM");
name(TOKEN_2022_PROGRAM_ID, "TOKEN_2022");
name(NATIVE_MINT, "WSOL_MINT");
name(ASSOCIATED_TOKEN_PROGRAM_ID, "ATA_PROGRAM");
name(SystemProgram.programId, "SYSTEM");
name(launchSdk.PUMP_PROGRAM_ID, "PUMP_PROGRAM");
name(launchSdk.PUMP_AMM_PROGRAM_ID, "AMM_PROGRAM");
name(launchSdk.PUMP_FEE_PROGRAM_ID, "FEE_PROGRAM");
name(launchSdk.GLOBAL_PDA, "pump global PDA");
name(launchSdk.PUMP_EVENT_AUTHORITY_PDA, "pump event_authority");
name(launchSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA, "pump global_volume_accumulator");
name(launchSdk.PUMP_FEE_CONFIG_PDA, "pump fee_config");
name(launchSwapSdk.GLOBAL_CONFIG_PDA, "amm global_config");
name(launchSwapSdk.PUMP_AMM_EVENT_AUTHORITY_PDA, "amm event_authority");
name(launchSwapSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA, "amm global_volume_accumulator");
name(launchSwapSdk.PUMP_AMM_FEE_CONFIG_PDA, "amm fee_config");
name(bondingCurveAddress(mint), "bonding_curve PDA");
name(bondingCurveV2Address(mint), "bonding_curve_v2 PDA");
name(
  associatedTokenAddress(bondingCurveAddress(mint), mint, TOKEN_2022_PROGRAM_ID),
  "ATA(bonding_curve, MINT, T22)",
);
name(associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID), "ATA(USER, MINT, T22)");
name(associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(USER, WSOL, SPL)");
name(creatorVaultAddress(creator), "creator_vault PDA");
name(launchUserVolumeAccumulator(user), "pump user_volume_accumulator PDA");
name(swapUserVolumeAccumulator(user), "amm user_volume_accumulator PDA");
name(swapCashbackWsolAccount(user), "ATA(amm UVA, WSOL)");
export const pool = canonicalPoolAddress(mint);
name(pool, "canonical pool PDA");
name(poolV2Address(mint), "pool_v2 PDA");
export const vaults = poolVaultAddresses(pool, mint, TOKEN_2022_PROGRAM_ID);
name(vaults.base, "pool base ATA (T22)");
name(vaults.quote, "pool quote WSOL ATA");
name(associatedTokenAddress(FEE, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(FEE_RECIPIENT, WSOL)");
name(associatedTokenAddress(BUYBACK, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(BUYBACK_RECIPIENT, WSOL)");
const ccva = swapCreatorVaultAuthority(creator);
name(ccva, "coin_creator_vault_authority");
name(associatedTokenAddress(ccva, NATIVE_MINT, TOKEN_PROGRAM_ID), "coin_creator_vault_ata (WSOL)");
name(swapCreatorVaultAuthority(Z), "coin_creator_vault_authority(default)");
name(
  associatedTokenAddress(swapCreatorVaultAuthority(Z), NATIVE_MINT, TOKEN_PROGRAM_ID),
  "coin_creator_vault_ata(default, WSOL)",
);

/** One instruction as "program: [flags name, ...]" lines, flags S/W like build_ixs.out. */
export function show(ix: TransactionInstruction): { program: string; data: string; keys: string[] } {
  return {
    program: names.get(ix.programId.toBase58()) ?? ix.programId.toBase58(),
    data: Buffer.from(ix.data).toString("hex"),
    keys: ix.keys.map(
      (k) =>
        `${k.isSigner ? "S" : "-"}${k.isWritable ? "W" : "-"} ${names.get(k.pubkey.toBase58()) ?? k.pubkey.toBase58()}`,
    ),
  };
}

export const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b.toString("hex");
};

export const ATA_CREATE_T22 = [
  "SW USER",
  "-W ATA(USER, MINT, T22)",
  "-- USER",
  "-- MINT",
  "-- SYSTEM",
  "-- TOKEN_2022",
];
