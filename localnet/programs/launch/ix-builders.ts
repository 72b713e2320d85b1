/**
 * Synchronous instruction builders for the operator helpers (the SDK's builders are async, and its
 * create-and-buy refuses cashback). Data is encoded with the SDK's IDL coder; account lists follow the
 * IDL order and match what the SDK emits (a test compares them).
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey, SystemProgram, TransactionInstruction, type AccountMeta } from "@solana/web3.js";
import BN from "bn.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import { BUYBACK_FEE_RECIPIENTS, FEE_PROGRAM_ID, LAUNCH_PROGRAM_ID, MAYHEM_PROGRAM_ID } from "./constants.js";
import {
  creatorVaultAddress,
  curveAddress,
  curveTokenAccount,
  curveV2Address,
  EVENT_AUTHORITY_ADDRESS,
  FEE_CONFIG_ADDRESS,
  GLOBAL_ADDRESS,
  GLOBAL_VOLUME_ACCUMULATOR_ADDRESS,
  MINT_AUTHORITY_ADDRESS,
  userVolumeAccumulatorAddress,
  associatedTokenAddress,
} from "./pda.js";
import { pumpCoder } from "./idl-coder.js";

const coder = () => pumpCoder;
const ro = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });
const w = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });
const ws = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: true, isWritable: true });

/** create_v2 for a SOL-quoted coin; `cashback` sets is_cashback_enabled (deprecated on the real program). */
export function buildCreateV2Ix(a: {
  mint: PublicKey;
  user: PublicKey;
  creator: PublicKey;
  name: string;
  symbol: string;
  uri: string;
  mayhem: boolean;
  cashback: boolean;
}): TransactionInstruction {
  const data = coder().instruction.encode("createV2", {
    name: a.name,
    symbol: a.symbol,
    uri: a.uri,
    creator: a.creator,
    isMayhemMode: a.mayhem,
    isCashbackEnabled: [a.cashback],
    creatorFeeBps: [new BN(0)],
    isHolderReward: [false],
  });
  return new TransactionInstruction({
    programId: LAUNCH_PROGRAM_ID,
    data,
    keys: [
      ws(a.mint),
      ro(MINT_AUTHORITY_ADDRESS),
      w(curveAddress(a.mint)),
      w(curveTokenAccount(a.mint)),
      ro(GLOBAL_ADDRESS),
      ws(a.user),
      ro(SystemProgram.programId),
      ro(TOKEN_2022_PROGRAM_ID),
      ro(ASSOCIATED_TOKEN_PROGRAM_ID),
      w(MAYHEM_PROGRAM_ID),
      ro(launchSdk.getGlobalParamsPda()),
      w(launchSdk.getSolVaultPda()),
      w(launchSdk.getMayhemStatePda(a.mint)),
      w(launchSdk.getTokenVaultPda(a.mint)),
      ro(EVENT_AUTHORITY_ADDRESS),
      ro(LAUNCH_PROGRAM_ID),
    ],
  });
}

/** Legacy 18-account `buy` (or `buy_exact_sol_in` with `exactSolIn`) on a Token-2022 coin. */
export function buildBuyIx(a: {
  mint: PublicKey;
  user: PublicKey;
  creator: PublicKey;
  feeRecipient: PublicKey;
  buybackFeeRecipient?: PublicKey;
  /** buy: tokens out; exactSolIn: spendable lamports. */
  amount: bigint;
  /** buy: max_sol_cost; exactSolIn: min_tokens_out. */
  limit: bigint;
  exactSolIn?: boolean;
}): TransactionInstruction {
  const data = a.exactSolIn
    ? coder().instruction.encode("buyExactSolIn", {
        spendableSolIn: new BN(a.amount.toString()),
        minTokensOut: new BN(a.limit.toString()),
        trackVolume: [true],
      })
    : coder().instruction.encode("buy", {
        amount: new BN(a.amount.toString()),
        maxSolCost: new BN(a.limit.toString()),
        trackVolume: [true],
      });
  return new TransactionInstruction({
    programId: LAUNCH_PROGRAM_ID,
    data,
    keys: [
      ro(GLOBAL_ADDRESS),
      w(a.feeRecipient),
      ro(a.mint),
      w(curveAddress(a.mint)),
      w(curveTokenAccount(a.mint)),
      w(associatedTokenAddress(a.user, a.mint, TOKEN_2022_PROGRAM_ID)),
      ws(a.user),
      ro(SystemProgram.programId),
      ro(TOKEN_2022_PROGRAM_ID),
      w(creatorVaultAddress(a.creator)),
      ro(EVENT_AUTHORITY_ADDRESS),
      ro(LAUNCH_PROGRAM_ID),
      ro(GLOBAL_VOLUME_ACCUMULATOR_ADDRESS),
      w(userVolumeAccumulatorAddress(a.user)),
      ro(FEE_CONFIG_ADDRESS),
      ro(FEE_PROGRAM_ID),
      ro(curveV2Address(a.mint)),
      w(a.buybackFeeRecipient ?? BUYBACK_FEE_RECIPIENTS[0]!),
    ],
  });
}
