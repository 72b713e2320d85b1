/**
 * The account shape the launch layer interprets: what `getMultipleAccounts` returns per key, whether it
 * comes from our RPC client (bigint lamports, Buffer data) or from web3.js' Connection (number lamports).
 */
import type { PublicKey } from "@solana/web3.js";
import type { RawData } from "./state.js";

/** One account of a batched read; `null` in a read result means the account does not exist. */
export interface ReadAccount {
  lamports: bigint | number;
  owner: PublicKey;
  data: RawData;
}

/** A read result lined up with the plan's addresses (same length, same order). */
export type ReadResult = readonly (ReadAccount | null)[];

/** Throws when a read result does not line up with the addresses it was read for. */
export function assertAligned(addresses: readonly PublicKey[], accounts: ReadResult): void {
  if (accounts.length !== addresses.length) {
    throw new Error(`read returned ${accounts.length} accounts for ${addresses.length} addresses`);
  }
}

/** Lamports of an account as bigint (0 for a missing account). */
export function lamportsOf(account: ReadAccount | null): bigint {
  return account === null ? 0n : BigInt(account.lamports);
}
