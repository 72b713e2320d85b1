/**
 * Durable-nonce transactions (as Agave's `check_transaction_age`): a transaction whose blockhash is not a
 * recent one is still valid when its FIRST instruction is the System program's AdvanceNonceAccount and the
 * nonce account it names is an initialized nonce account holding exactly that blockhash. Running the advance
 * (LiteSVM's real System program) stores a new value, so the same nonce cannot be used twice: every other
 * transaction built on it fails as BlockhashNotFound.
 */
import { PublicKey, type VersionedTransaction } from "@solana/web3.js";
import bs58 from "bs58";
import type { AccountState } from "../programs/types.js";

const SYSTEM_PROGRAM = PublicKey.default;
/** SystemInstruction::AdvanceNonceAccount. */
const ADVANCE_NONCE = 4;
/** Versions (u32), State (u32: 1 = initialized), authority (32), durable nonce (32), lamports per signature (u64). */
export const NONCE_ACCOUNT_LENGTH = 80;
const INITIALIZED = 1;

/** The durable nonce a nonce account holds (base58), or null when it is not an initialized nonce account. */
export function storedNonce(account: AccountState | null): string | null {
  if (account === null || !account.owner.equals(SYSTEM_PROGRAM)) return null;
  const data = Buffer.from(account.data);
  if (data.length !== NONCE_ACCOUNT_LENGTH || data.readUInt32LE(4) !== INITIALIZED) return null;
  return bs58.encode(data.subarray(40, 72));
}

/** The nonce account a transaction advances first (its durable-nonce form), or null. */
export function advancedNonceAccount(tx: VersionedTransaction): PublicKey | null {
  const msg = tx.message;
  const first = msg.compiledInstructions[0];
  if (first === undefined) return null;
  const program = msg.staticAccountKeys[first.programIdIndex];
  if (program === undefined || !program.equals(SYSTEM_PROGRAM)) return null;
  const data = Buffer.from(first.data);
  if (data.length < 4 || data.readUInt32LE(0) !== ADVANCE_NONCE) return null;
  const index = first.accountKeyIndexes[0];
  // A nonce account must be a static, writable key (Agave resolves it before loading lookup tables).
  if (index === undefined || index >= msg.staticAccountKeys.length || !msg.isAccountWritable(index))
    return null;
  return msg.staticAccountKeys[index] ?? null;
}

/** Whether `tx`'s blockhash is the durable nonce its first instruction advances. */
export function durableNonceValid(
  tx: VersionedTransaction,
  getAccount: (key: PublicKey) => AccountState | null,
): boolean {
  const nonce = advancedNonceAccount(tx);
  return nonce !== null && storedNonce(getAccount(nonce)) === tx.message.recentBlockhash;
}
