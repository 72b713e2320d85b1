/** Managed-wallet rules: create, import, list, set default, delink, and wallet selection for executions. */
import { PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { isAddress } from "../../core/addresses.js";
import { ApiError, FOUNDATION, HARDENING } from "../../core/errors.js";
import { newSecretKey, publicHalfMatches, secretKeyFromSeed } from "./secret-keys.js";
import {
  DuplicateWalletError,
  isoNoZone,
  type NewWallet,
  type Store,
  type WalletRecord,
  WalletLimitError,
} from "../../store/index.js";
import type { Vault } from "../../vault/index.js";

/** The public metadata of a wallet as the API returns it. */
export interface WalletView {
  id: number;
  public_key: string;
  status: "active";
  is_default: boolean;
  created_at: string;
}

/** Public view of a stored wallet (never the encrypted fields). */
export function walletView(w: WalletRecord): WalletView {
  return {
    // The wallet's number within its key: the row id would tell any key how many wallets the instance holds.
    id: w.seq,
    public_key: w.publicKey,
    status: w.status,
    is_default: w.isDefault,
    created_at: w.createdAt,
  };
}

export interface WalletDeps {
  store: Pick<Store, "addWallet" | "listWallets" | "setDefaultWallet" | "deleteWallet">;
  vault: Pick<Vault, "encryptSecret">;
  clock: () => Date;
  /** MAX_WALLETS_PER_KEY (setup's wallet counted); omitted = no cap. */
  maxWalletsPerKey?: number;
}

const notFound = (): ApiError => new ApiError(404, FOUNDATION.walletNotFound);

/**
 * Hands `use` the record the store takes for the 64-byte `secret` (encrypted under the vault's key) and the
 * secret itself, for an answer that returns it once. Takes ownership of `secret`: it is zeroed when `use`
 * settles, and no other copy of it is made (the public key is read from its second half).
 */
export async function withSealedKeypair<T>(
  deps: { vault: Pick<Vault, "encryptSecret">; clock: () => Date },
  secret: Uint8Array,
  use: (wallet: NewWallet, secret: Uint8Array) => Promise<T>,
): Promise<T> {
  try {
    const publicKey = new PublicKey(secret.subarray(32)).toBase58();
    const wallet = {
      publicKey,
      createdAt: isoNoZone(deps.clock()),
      ...deps.vault.encryptSecret(secret, publicKey),
    };
    return await use(wallet, secret);
  } finally {
    secret.fill(0);
  }
}

// Stores the secret under the key; `shape` builds the answer while the secret still exists.
async function storeKeypair<T>(
  deps: WalletDeps,
  apiKeyId: number,
  secret: Uint8Array,
  setDefault: boolean,
  shape: (record: WalletRecord, secret: Uint8Array) => T,
): Promise<T> {
  try {
    return await withSealedKeypair(deps, secret, async (wallet, s) =>
      shape(await deps.store.addWallet(apiKeyId, wallet, setDefault, deps.maxWalletsPerKey), s),
    );
  } catch (e) {
    if (e instanceof WalletLimitError) throw new ApiError(409, HARDENING.walletLimit(e.max));
    throw e;
  }
}

/** Creates a wallet with a fresh keypair; the secret is returned once, base58 64-byte form. */
export async function createWallet(
  deps: WalletDeps,
  apiKeyId: number,
  setDefault: boolean,
): Promise<WalletView & { private_key_base58: string; private_key_format: "base58_64_byte_secret_key" }> {
  return storeKeypair(deps, apiKeyId, newSecretKey(), setDefault, (record, secret) => ({
    ...walletView(record),
    private_key_base58: bs58.encode(secret),
    private_key_format: "base58_64_byte_secret_key" as const,
  }));
}

/**
 * Decodes an imported secret (base58 of a 64-byte secret key that must match its own public half, or of a
 * 32-byte seed) into a new 64-byte buffer the caller owns; the decoded bytes are zeroed.
 */
function parseImportedSecret(text: unknown): Uint8Array {
  if (typeof text !== "string" || text.trim() === "") throw new ApiError(400, FOUNDATION.privateKeyRequired);
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(text.trim());
  } catch {
    throw new ApiError(400, FOUNDATION.privateKeyNotBase58);
  }
  try {
    if (bytes.length === 32) return secretKeyFromSeed(bytes);
    if (bytes.length !== 64) throw new ApiError(400, FOUNDATION.privateKeyLength);
    if (!publicHalfMatches(bytes)) throw new ApiError(400, FOUNDATION.privateKeyMismatch);
    return Uint8Array.from(bytes);
  } finally {
    bytes.fill(0);
  }
}

/** Imports a secret for the key; 409 when the key already holds that wallet. */
export async function importWallet(
  deps: WalletDeps,
  apiKeyId: number,
  privateKeyBase58: unknown,
  setDefault: boolean,
): Promise<WalletView> {
  const secret = parseImportedSecret(privateKeyBase58);
  try {
    return await storeKeypair(deps, apiKeyId, secret, setDefault, walletView);
  } catch (e) {
    if (e instanceof DuplicateWalletError) throw new ApiError(409, FOUNDATION.walletAlreadyLinked);
    throw e;
  }
}

/** The key's wallets, oldest first. */
export async function listWallets(deps: Pick<WalletDeps, "store">, apiKeyId: number): Promise<WalletView[]> {
  return (await deps.store.listWallets(apiKeyId)).map(walletView);
}

/**
 * A path's wallet as an address, or the 404 an unknown wallet gets: a text that is not an address is never
 * one of the key's wallets, and PostgreSQL refuses some texts (a NUL byte) with an error, not a miss.
 */
function walletAddress(publicKey: string): string {
  if (!isAddress(publicKey)) throw notFound();
  return publicKey;
}

/** Makes a wallet of this key the default; 404 for unknown or foreign wallets. */
export async function setDefaultWallet(
  deps: Pick<WalletDeps, "store">,
  apiKeyId: number,
  publicKey: string,
): Promise<WalletView> {
  const w = await deps.store.setDefaultWallet(apiKeyId, walletAddress(publicKey));
  if (w === undefined) throw notFound();
  return walletView(w);
}

/**
 * Removes a wallet of this key with its encrypted secret; its execution history leaves the API but stays in
 * the database (soft delete). 404 for unknown or foreign.
 */
export async function delinkWallet(
  deps: Pick<WalletDeps, "store">,
  apiKeyId: number,
  publicKey: string,
): Promise<{ ok: true }> {
  if (!(await deps.store.deleteWallet(apiKeyId, walletAddress(publicKey)))) throw notFound();
  return { ok: true };
}

export interface SelectWalletOptions {
  /** Thrown when a named wallet is not one of this key's (default: 404 "wallet not found"). */
  notFoundError?: () => ApiError;
  /** Thrown when no wallet is named and the key has none (default: 400 FOUNDATION.noWallets). */
  noWalletError?: () => ApiError;
}

/**
 * The wallet an execution signs with: the named one (must belong to the key) or the key's default.
 * Never reveals whether a foreign wallet exists under another key.
 */
export async function selectWallet(
  store: Pick<Store, "findWallet" | "findDefaultWallet">,
  apiKeyId: number,
  publicKey?: string,
  options: SelectWalletOptions = {},
): Promise<WalletRecord> {
  if (publicKey !== undefined) {
    const w = await store.findWallet(apiKeyId, publicKey);
    if (w === undefined) throw (options.notFoundError ?? notFound)();
    return w;
  }
  const w = await store.findDefaultWallet(apiKeyId);
  if (w === undefined) throw (options.noWalletError ?? (() => new ApiError(400, FOUNDATION.noWallets)))();
  return w;
}
