/** What the fuzz case generators draw valid values from: the run's addresses and keys, builtin and random addresses. */
import bs58 from "bs58";
import fc from "fast-check";

/** Addresses and keys the generators draw valid values from. */
export interface CaseContext {
  apiKey: string;
  otherApiKey: string;
  wallets: readonly [string, string];
  foreignWallet: string;
  mint: string;
  migratedMint: string;
  pool: string;
  /** Wallets the run created (safe to delink); read at generation time. */
  disposable: () => readonly string[];
}

/** Builtin program and sysvar addresses: valid base58 public keys that are never a user's wallet. */
export const BUILTIN_ADDRESSES = [
  "11111111111111111111111111111111",
  "SysvarRent111111111111111111111111111111111",
  "SysvarC1ock11111111111111111111111111111111",
  "Sysvar1nstructions1111111111111111111111111",
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  "ATokenGPvbdGVxr1b2hf4AFrCC4ywbLQVLyaKjHidEWU",
  "ComputeBudget111111111111111111111111111111",
  "So11111111111111111111111111111111111111112",
];

/** `n` random bytes as base58. */
export const base58Of = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => bs58.encode(b));

/** A random address (nobody's wallet) as base58. */
export const randomAddress = base58Of(32);
