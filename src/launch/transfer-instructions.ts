/**
 * Asset transfers of the send-asset endpoint: native SOL, or a token of either token program into the
 * recipient's associated token account (created idempotently, rent paid by the sender). Plus the read
 * that finds the mint's token program, decimals and the sender's balance in one call.
 */
import { SystemProgram, type PublicKey, type TransactionInstruction } from "@solana/web3.js";
import {
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from "./spl-token.js";
import { SPEC, badRequest } from "../core/errors.js";
import { associatedTokenAddress, isTokenProgram } from "./programs.js";
import { assertAligned, type ReadResult } from "./read-account.js";
import { decodeMint, decodeTokenAccount } from "./state.js";

/** Native SOL transfer. */
export function buildSolTransfer(args: {
  from: PublicKey;
  to: PublicKey;
  lamports: bigint;
}): TransactionInstruction[] {
  return [SystemProgram.transfer({ fromPubkey: args.from, toPubkey: args.to, lamports: args.lamports })];
}

/** Token transfer between the two wallets' ATAs: [recipient ATA create (idempotent)?, transferChecked]. */
export function buildTokenTransfer(args: {
  mint: PublicKey;
  tokenProgram: PublicKey;
  decimals: number;
  from: PublicKey;
  to: PublicKey;
  amount: bigint;
  createRecipientAta: boolean;
}): TransactionInstruction[] {
  const { mint, tokenProgram, from, to } = args;
  const source = associatedTokenAddress(from, mint, tokenProgram);
  const destination = associatedTokenAddress(to, mint, tokenProgram);
  const transfer = createTransferCheckedInstruction(
    source,
    mint,
    destination,
    from,
    args.amount,
    args.decimals,
    [],
    tokenProgram,
  );
  if (!args.createRecipientAta) return [transfer];
  return [
    createAssociatedTokenAccountIdempotentInstruction(from, destination, to, mint, tokenProgram),
    transfer,
  ];
}

/** Addresses of the token-transfer read: the mint and the sender's ATA under both token programs. */
export function tokenTransferReadPlan(args: { mint: PublicKey; from: PublicKey }): {
  addresses: PublicKey[];
} {
  return {
    addresses: [
      args.mint,
      associatedTokenAddress(args.from, args.mint, TOKEN_2022_PROGRAM_ID),
      associatedTokenAddress(args.from, args.mint, TOKEN_PROGRAM_ID),
    ],
  };
}

/** What a token transfer needs from the chain. */
export interface TokenTransferRead {
  tokenProgram: PublicKey;
  decimals: number;
  sourceTokenAccount: PublicKey;
  sourceBalance: bigint;
}

/** Interprets the token-transfer read; throws the spec's 400s for a missing or foreign mint and a missing source account. */
export function interpretTokenTransferRead(
  plan: { addresses: PublicKey[] },
  accounts: ReadResult,
): TokenTransferRead {
  assertAligned(plan.addresses, accounts);
  const [mintAccount, ata2022, ataSpl] = accounts;
  if (!mintAccount) throw badRequest(SPEC.transfer.mintNotFound);
  if (!isTokenProgram(mintAccount.owner)) throw badRequest(SPEC.transfer.unsupportedMint);
  const tokenProgram = mintAccount.owner;
  let decimals: number;
  try {
    decimals = decodeMint(mintAccount.data, tokenProgram).decimals;
  } catch {
    throw badRequest(SPEC.transfer.unsupportedMint);
  }
  const is2022 = tokenProgram.equals(TOKEN_2022_PROGRAM_ID);
  const source = is2022 ? ata2022 : ataSpl;
  const sourceTokenAccount = plan.addresses[is2022 ? 1 : 2] as PublicKey;
  if (!source || !source.owner.equals(tokenProgram)) throw badRequest(SPEC.transfer.noSourceAccount);
  return {
    tokenProgram,
    decimals,
    sourceTokenAccount,
    sourceBalance: decodeTokenAccount(source.data, tokenProgram).amount,
  };
}
