/**
 * An outside wallet's durable nonce account (issue 32), for raced outside sends. Its address is derived from the
 * wallet exactly as a managed wallet's (createAccountWithSeed with the wallet as base, so the wallet alone
 * creates, advances and withdraws it, and the service stores nothing); the service builds the unsigned creation
 * for the wallet to sign and send. A raced build may instead name a nonce account the wallet already controls.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import {
  createNonceInstructions,
  decodeNonce,
  NONCE_ACCOUNT_BYTES,
  nonceAddress,
  type NonceState,
} from "../../chain/landing/nonce.js";
import { upstreamDetail } from "../../chain/upstream-errors.js";
import { parseAddress, type Address } from "../../core/addresses.js";
import { ApiError, badRequest, upstreamError } from "../../core/errors.js";
import { fieldOf, type RequestBody } from "../../core/request-fields.js";
import type { SpendGuard } from "../execution/types.js";
import { OUTSIDE_NONCE } from "./nonce-texts.js";
import { OUTSIDE } from "./texts.js";

type NonceRpc = Pick<Chain["rpc"], "getAccountInfo">;

/** The nonce account at `address`, or null when it does not exist or is not an initialized nonce account. */
export async function readNonceAccount(rpc: NonceRpc, address: PublicKey): Promise<NonceState | null> {
  let read;
  try {
    read = await rpc.getAccountInfo(address);
  } catch (e) {
    throw upstreamError(upstreamDetail(e));
  }
  return decodeNonce(address, read.value);
}

/**
 * The nonce a raced build for `wallet` advances: `given` (an account the wallet already controls) or the
 * wallet's derived one; a 409 naming the fix when it does not exist (never created, or closed) or another
 * authority controls it.
 */
export async function outsideNonce(rpc: NonceRpc, wallet: PublicKey, given?: Address): Promise<NonceState> {
  const address = given !== undefined ? new PublicKey(given) : await nonceAddress(wallet);
  const nonce = await readNonceAccount(rpc, address);
  if (nonce === null)
    throw new ApiError(409, OUTSIDE_NONCE.nonceMissing, { nonce_account: address.toBase58() });
  if (!nonce.authority.equals(wallet))
    throw new ApiError(409, OUTSIDE_NONCE.otherAuthority, {
      nonce_account: address.toBase58(),
      authority: nonce.authority.toBase58(),
    });
  return nonce;
}

/** A nonce-account build request: the outside wallet. */
export interface NonceAccountIntent {
  publicKey: Address;
}

/** Parses `public_key` (alias publicKey). */
export function parseNonceAccountRequest(body: RequestBody): NonceAccountIntent {
  const pk = fieldOf(body, ["public_key", "publicKey"]);
  if (pk === undefined || pk === null || pk === "") throw badRequest(OUTSIDE.publicKeyRequired);
  return { publicKey: parseAddress(pk, OUTSIDE.publicKeyInvalid) };
}

/** Collaborators of a nonce-account build. */
export interface NonceAccountDeps {
  chain: Pick<Chain, "rpc" | "assemble">;
  spendGuard?: SpendGuard;
}

/** The nonce-account build answer. */
export interface NonceAccountBuild {
  public_key: string;
  nonce_account: string;
  /** True when it already exists (then nothing is to be signed: `transaction` is null). */
  exists: boolean;
  /** The unsigned creation (create with seed + initialize, authority the wallet), base64; null when it exists. */
  transaction: string | null;
  /** Its rent-exempt balance, paid by the wallet, returned when the wallet withdraws it. */
  rent_lamports: string;
  /** The current nonce value (null until it exists). */
  nonce_value: string | null;
  authority: string;
  /** Send the creation before this block height (null when it exists). */
  last_valid_block_height: number | null;
}

/**
 * The outside wallet's nonce account: as it is when it exists (its authority must be the wallet: else 409), or
 * the unsigned transaction that creates it, paid and signed by the wallet alone.
 */
export async function runNonceAccountBuild(
  deps: NonceAccountDeps,
  _apiKeyId: number,
  intent: NonceAccountIntent,
): Promise<NonceAccountBuild> {
  await deps.spendGuard?.beforeSign();
  const wallet = new PublicKey(intent.publicKey);
  const address = await nonceAddress(wallet);
  let read;
  try {
    read = await deps.chain.rpc.getAccountInfo(address);
  } catch (e) {
    throw upstreamError(upstreamDetail(e));
  }
  const base = { public_key: intent.publicKey, nonce_account: address.toBase58() };
  const nonce = decodeNonce(address, read.value);
  if (nonce !== null) {
    if (!nonce.authority.equals(wallet))
      throw new ApiError(409, OUTSIDE_NONCE.otherAuthority, {
        nonce_account: address.toBase58(),
        authority: nonce.authority.toBase58(),
      });
    return {
      ...base,
      exists: true,
      transaction: null,
      rent_lamports: nonce.lamports.toString(),
      nonce_value: nonce.value,
      authority: nonce.authority.toBase58(),
      last_valid_block_height: null,
    };
  }
  // Something else at the derived address: createAccountWithSeed would fail once signed.
  if (read.value !== null)
    throw new ApiError(409, OUTSIDE_NONCE.addressTaken, { nonce_account: address.toBase58() });
  let rent;
  try {
    rent = await deps.chain.rpc.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_BYTES);
  } catch (e) {
    throw upstreamError(upstreamDetail(e));
  }
  const inspect = deps.spendGuard?.inspect;
  const tx = deps.chain.assemble({
    kind: "transfer",
    payer: wallet,
    instructions: createNonceInstructions(wallet, address, rent),
    tip: "none",
    ...(inspect !== undefined ? { inspect: (t) => void inspect(t) } : {}),
  });
  return {
    ...base,
    exists: false,
    transaction: Buffer.from(tx.wire).toString("base64"),
    rent_lamports: rent.toString(),
    nonce_value: null,
    authority: intent.publicKey,
    last_valid_block_height: tx.lastValidBlockHeight,
  };
}
