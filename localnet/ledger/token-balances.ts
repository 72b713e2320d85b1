/** Token balances of a transaction's accounts, as the RPC reports them in pre/postTokenBalances. */
import { PublicKey } from "@solana/web3.js";
import type { AccountState } from "../programs/types.js";

export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM_ID = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

/** One token account balance entry (`meta.preTokenBalances[i]`). */
export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string };
}

/** Formats a raw amount with `decimals` as the RPC's uiAmountString (no trailing zeros). */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, "");
  return frac.length > 0 ? `${whole}.${frac}` : whole;
}

/** Whether an account is an SPL Token / Token-2022 token account (not a mint). */
function isTokenAccount(acc: AccountState): boolean {
  const owner = acc.owner.toBase58();
  if (owner === TOKEN_PROGRAM_ID) return acc.data.length === 165;
  if (owner === TOKEN_2022_PROGRAM_ID)
    return acc.data.length === 165 || (acc.data.length > 165 && acc.data[165] === 2);
  return false;
}

/** Balance and decimals of a token account, or null when it is not one. */
export function tokenAccountBalance(
  acc: AccountState,
  getAccount: (k: PublicKey) => AccountState | null,
): { mint: PublicKey; owner: PublicKey; amount: bigint; decimals: number } | null {
  if (!isTokenAccount(acc)) return null;
  const data = Buffer.from(acc.data);
  const mint = new PublicKey(data.subarray(0, 32));
  const owner = new PublicKey(data.subarray(32, 64));
  const amount = data.readBigUInt64LE(64);
  const mintAcc = getAccount(mint);
  const decimals = mintAcc !== null && mintAcc.data.length >= 45 ? mintAcc.data[44]! : 0;
  return { mint, owner, amount, decimals };
}

/** The token balance entries for the token accounts among `keys`. */
export function tokenBalances(
  keys: PublicKey[],
  getAccount: (k: PublicKey) => AccountState | null,
): TokenBalance[] {
  const out: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const acc = getAccount(key);
    if (acc === null) return;
    const bal = tokenAccountBalance(acc, getAccount);
    if (bal === null) return;
    const ui = uiAmountString(bal.amount, bal.decimals);
    out.push({
      accountIndex,
      mint: bal.mint.toBase58(),
      owner: bal.owner.toBase58(),
      programId: acc.owner.toBase58(),
      uiTokenAmount: {
        amount: bal.amount.toString(),
        decimals: bal.decimals,
        uiAmount: Number(ui),
        uiAmountString: ui,
      },
    });
  });
  return out;
}
