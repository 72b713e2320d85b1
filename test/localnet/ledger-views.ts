/** Read helpers the in-process localnet tests share: ledger accounts in the shapes the SDKs and assertions want. */
import type { AccountInfo, PublicKey } from "@solana/web3.js";
import type { Ledger } from "../../localnet/ledger/index.js";

/** The account as web3.js' AccountInfo (what the SDK decoders take), or null when absent. */
export function accountInfo(ledger: Ledger, key: PublicKey): AccountInfo<Buffer> | null {
  const a = ledger.getAccount(key);
  if (!a) return null;
  return {
    data: Buffer.from(a.data),
    // web3.js types lamports as a number; test balances stay far below 2^53.
    lamports: Number(a.lamports),
    owner: a.owner,
    executable: a.executable,
  };
}

/** The account's lamports, 0 when absent. */
export function lamports(ledger: Ledger, key: PublicKey): bigint {
  return ledger.getAccount(key)?.lamports ?? 0n;
}
