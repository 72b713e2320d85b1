/**
 * The durable nonce account of a managed wallet: one per wallet, at an address derived from the wallet
 * (createAccountWithSeed, so nothing new is stored or held: the wallet's own key creates, advances and can
 * withdraw it), created on demand, funded by the wallet with its rent-exempt minimum (returned on withdraw).
 */
import { NONCE_ACCOUNT_LENGTH, NonceAccount, PublicKey, SystemProgram } from "@solana/web3.js";
import type { TransactionInstruction } from "@solana/web3.js";
import type { AccountInfo } from "../rpc-client.js";

/** The seed of every wallet's nonce account (a version in it lets a later layout move to a new address). */
export const NONCE_SEED = "lasertrade-nonce-1";
/** Bytes of a nonce account. */
export const NONCE_ACCOUNT_BYTES = NONCE_ACCOUNT_LENGTH;

/** The wallet's nonce account address (base + seed, owned by the System program). */
export async function nonceAddress(wallet: PublicKey): Promise<PublicKey> {
  return PublicKey.createWithSeed(wallet, NONCE_SEED, SystemProgram.programId);
}

/** Instructions creating and initializing the wallet's nonce account (the wallet pays `rentLamports`). */
export function createNonceInstructions(
  wallet: PublicKey,
  nonce: PublicKey,
  rentLamports: bigint,
): TransactionInstruction[] {
  return [
    SystemProgram.createAccountWithSeed({
      fromPubkey: wallet,
      newAccountPubkey: nonce,
      basePubkey: wallet,
      seed: NONCE_SEED,
      lamports: Number(rentLamports),
      space: NONCE_ACCOUNT_BYTES,
      programId: SystemProgram.programId,
    }),
    SystemProgram.nonceInitialize({ noncePubkey: nonce, authorizedPubkey: wallet }),
  ];
}

/** The AdvanceNonceAccount instruction: the first instruction of every transaction built on the nonce. */
export function advanceNonceInstruction(nonce: PublicKey, authority: PublicKey): TransactionInstruction {
  return SystemProgram.nonceAdvance({ noncePubkey: nonce, authorizedPubkey: authority });
}

/** A nonce account's state: its current value (the blockhash a transaction on it uses) and its authority. */
export interface NonceState {
  address: PublicKey;
  value: string;
  authority: PublicKey;
  lamports: bigint;
}

/**
 * Decodes a nonce account; null when it does not exist or is not an initialized nonce account of the System
 * program (closed, or never created).
 */
export function decodeNonce(address: PublicKey, account: AccountInfo | null): NonceState | null {
  if (account === null || !account.owner.equals(SystemProgram.programId)) return null;
  const data = account.data;
  if (data.length !== NONCE_ACCOUNT_BYTES || data.readUInt32LE(4) !== 1) return null;
  const n = NonceAccount.fromAccountData(data);
  return { address, value: n.nonce, authority: n.authorizedPubkey, lamports: BigInt(account.lamports) };
}
