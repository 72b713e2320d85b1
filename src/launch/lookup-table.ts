/**
 * Addresses for an address lookup table. create_v2 + the creator's first buy references 27 accounts and
 * does not fit a legacy transaction (1232 bytes) once compute budget, a relay tip and a realistic
 * metadata URI are added; a v0 message that looks up the accounts below (the same for every mint and
 * every user, never signers) brings it well under the limit. Trades fit either way.
 */
import { ComputeBudgetProgram, PublicKey, SystemProgram } from "@solana/web3.js";
import { TOKEN_PROGRAM_ID } from "./spl-token.js";
import {
  ATA_PROGRAM_ID,
  LAUNCH_EVENT_AUTHORITY,
  LAUNCH_FEE_CONFIG,
  LAUNCH_FEE_PROGRAM_ID,
  LAUNCH_GLOBAL,
  LAUNCH_GLOBAL_VOLUME_ACCUMULATOR,
  LAUNCH_PROGRAM_ID,
  LAUNCH_SWAP_PROGRAM_ID,
  MAYHEM_PROGRAM_ID,
  SPL_TOKEN_PROGRAM_ID,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
  SWAP_GLOBAL_VOLUME_ACCUMULATOR,
  TOKEN_2022_ID,
  WSOL_MINT,
  associatedTokenAddress,
} from "./programs.js";
import { launchSdk } from "./sdk.js";
import type { LaunchGlobal, SwapGlobalConfig } from "./state.js";

/** A lookup table holds at most 256 addresses. */
export const LOOKUP_TABLE_CAPACITY = 256;

/**
 * The fixed, never-signing addresses of launch transactions: programs, global PDAs, fee and buyback
 * recipients of both programs (with the swap recipients' WSOL accounts) and the relays' tip accounts.
 */
export function staticLookupAddresses(args: {
  global: LaunchGlobal;
  swapGlobalConfig: SwapGlobalConfig;
  tipAccounts: readonly PublicKey[];
}): PublicKey[] {
  const { global, swapGlobalConfig: gc } = args;
  const swapRecipients = [
    ...gc.protocolFeeRecipients,
    gc.reservedFeeRecipient,
    ...gc.reservedFeeRecipients,
    ...gc.buybackFeeRecipients,
  ].filter((k) => !k.equals(PublicKey.default));
  const all = [
    ComputeBudgetProgram.programId,
    SystemProgram.programId,
    TOKEN_2022_ID,
    SPL_TOKEN_PROGRAM_ID,
    ATA_PROGRAM_ID,
    LAUNCH_PROGRAM_ID,
    LAUNCH_SWAP_PROGRAM_ID,
    LAUNCH_FEE_PROGRAM_ID,
    MAYHEM_PROGRAM_ID,
    WSOL_MINT,
    LAUNCH_GLOBAL,
    PublicKey.findProgramAddressSync([Buffer.from("mint-authority")], LAUNCH_PROGRAM_ID)[0],
    launchSdk.getGlobalParamsPda(),
    launchSdk.getSolVaultPda(),
    LAUNCH_EVENT_AUTHORITY,
    LAUNCH_GLOBAL_VOLUME_ACCUMULATOR,
    LAUNCH_FEE_CONFIG,
    SWAP_GLOBAL_CONFIG,
    SWAP_EVENT_AUTHORITY,
    SWAP_GLOBAL_VOLUME_ACCUMULATOR,
    SWAP_FEE_CONFIG,
    global.feeRecipient,
    ...global.feeRecipients,
    global.reservedFeeRecipient,
    ...global.reservedFeeRecipients,
    ...global.buybackFeeRecipients,
    ...swapRecipients,
    ...swapRecipients.map((r) => associatedTokenAddress(r, WSOL_MINT, TOKEN_PROGRAM_ID)),
    ...args.tipAccounts,
  ];
  const seen = new Set<string>([PublicKey.default.toBase58()]);
  const unique = all.filter((k) => {
    const s = k.toBase58();
    if (seen.has(s)) return false;
    seen.add(s);
    return true;
  });
  if (unique.length > LOOKUP_TABLE_CAPACITY)
    throw new Error(`${unique.length} addresses exceed one lookup table`);
  return unique;
}
