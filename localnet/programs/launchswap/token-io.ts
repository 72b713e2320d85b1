/**
 * Token movements and account creation through the ledger's real programs (SPL Token, Token-2022,
 * ATA, System), the way the swap program does them by CPI. Reads use the SPL layouts directly.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
} from "@solana/spl-token";
import type { LedgerAccess } from "../types.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, ata } from "./addresses.js";

/** A token account's mint, owner and balance. */
export interface TokenAccountView {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  tokenProgram: PublicKey;
}

/** True for SPL Token and Token-2022. */
export function isTokenProgram(p: PublicKey): boolean {
  return p.equals(TOKEN_PROGRAM_ID) || p.equals(TOKEN_2022_PROGRAM_ID);
}

/** Reads a token account, or null when missing / not owned by a token program. */
export function readTokenAccount(ledger: LedgerAccess, key: PublicKey): TokenAccountView | null {
  const acc = ledger.getAccount(key);
  if (!acc || !isTokenProgram(acc.owner) || acc.data.length < 165) return null;
  const d = Buffer.from(acc.data);
  return {
    mint: new PublicKey(d.subarray(0, 32)),
    owner: new PublicKey(d.subarray(32, 64)),
    amount: d.readBigUInt64LE(64),
    tokenProgram: acc.owner,
  };
}

/** A mint's supply, decimals and owning token program, or null when missing. */
export function readMint(
  ledger: LedgerAccess,
  key: PublicKey,
): { supply: bigint; decimals: number; tokenProgram: PublicKey } | null {
  const acc = ledger.getAccount(key);
  if (!acc || !isTokenProgram(acc.owner) || acc.data.length < 82) return null;
  const d = Buffer.from(acc.data);
  return { supply: d.readBigUInt64LE(36), decimals: d[44]!, tokenProgram: acc.owner };
}

/** Moves `amount` tokens with transfer_checked signed by `authority` (a user or a PDA); no-op for 0. */
export function transferTokens(
  ledger: LedgerAccess,
  args: {
    from: PublicKey;
    to: PublicKey;
    mint: PublicKey;
    authority: PublicKey;
    amount: bigint;
    decimals: number;
    tokenProgram: PublicKey;
  },
): void {
  if (args.amount === 0n) return;
  ledger.invoke(
    createTransferCheckedInstruction(
      args.from,
      args.mint,
      args.to,
      args.authority,
      args.amount,
      args.decimals,
      [],
      args.tokenProgram,
    ),
  );
}

/** Creates the ATA of (owner, mint) with the ATA program when it is missing, rent paid by `payer`. */
export function ensureAta(
  ledger: LedgerAccess,
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
  tokenProgram: PublicKey,
): PublicKey {
  const address = ata(owner, mint, tokenProgram);
  if (!ledger.getAccount(address)) {
    ledger.invoke(
      createAssociatedTokenAccountIdempotentInstruction(payer, address, owner, mint, tokenProgram),
    );
  }
  return address;
}

/** Moves lamports from a system account with a System transfer; no-op for 0. */
export function transferLamports(
  ledger: LedgerAccess,
  from: PublicKey,
  to: PublicKey,
  lamports: bigint,
): void {
  if (lamports === 0n) return;
  ledger.invoke(SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports }));
}
