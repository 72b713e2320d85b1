/** Managing an account's keys: create a sub-key, list, revoke, freeze, set a policy, freeze the account. */
import { isAddress } from "../../core/addresses.js";
import { ApiError, badRequest } from "../../core/errors.js";
import { parseQueryInt } from "../../core/request-fields.js";
import type { KeyRecord, Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { parsePolicy, policyView } from "./policy.js";
import { SCOPES, type Scope } from "./scopes.js";
import { CUSTODY } from "./texts.js";

export interface KeysDeps {
  store: Pick<
    Store,
    "insertSubKey" | "listKeys" | "findKey" | "updateKey" | "setAccountFrozen" | "listWallets"
  >;
  vault: Pick<Vault, "createApiKey">;
  clock: () => Date;
  /** Issue 29: called after a key was revoked, frozen or had its policy set, or the account was (un)frozen. */
  onKeysChanged?: (accountId: number) => void;
}

/** A key as the API shows it (never its secret or hash). */
export interface KeyView {
  id: number;
  name: string;
  root: boolean;
  scopes: string[];
  wallets: string[] | null;
  expires_at: string | null;
  frozen: boolean;
  policy: Record<string, unknown>;
  created_at: string;
}

const CREATE_FIELDS = new Set(["name", "scopes", "wallets", "expires_at"]);

/** The wire view of a stored key. */
export function keyView(k: KeyRecord): KeyView {
  return {
    id: k.id,
    name: k.name,
    root: k.root,
    scopes: k.scopes ?? [...SCOPES],
    wallets: k.wallets,
    expires_at: k.expiresAt,
    frozen: k.frozen || k.accountFrozen,
    policy: k.policy ?? {},
    created_at: k.createdAt,
  };
}

/** Parses a path key id (a positive integer), 400 otherwise. */
export function parseKeyId(raw: string): number {
  const id = parseQueryInt(raw, CUSTODY.keyIdInvalid, { min: 1, max: 999_999_999 });
  if (id === undefined) throw badRequest(CUSTODY.keyIdInvalid);
  return id;
}

function parseScopes(v: unknown): Scope[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((s) => !SCOPES.includes(s as Scope)))
    throw badRequest(CUSTODY.scopesInvalid);
  return SCOPES.filter((s) => v.includes(s));
}

async function parseWallets(deps: KeysDeps, accountId: number, v: unknown): Promise<string[] | null> {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length === 0 || v.length > 100 || v.some((w) => !isAddress(w)))
    throw badRequest(CUSTODY.walletsInvalid);
  const own = new Set((await deps.store.listWallets(accountId)).map((w) => w.publicKey));
  for (const w of v as string[]) if (!own.has(w)) throw badRequest(CUSTODY.walletNotOwned(w));
  return [...new Set(v as string[])];
}

function parseExpiry(v: unknown, now: Date): string | null {
  if (v === undefined || v === null) return null;
  // ISO 8601 date-time with a zone (Z or ±hh:mm), so the instant is unambiguous.
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
  if (typeof v !== "string" || !iso.test(v)) throw badRequest(CUSTODY.expiresAtInvalid);
  const t = Date.parse(v);
  if (Number.isNaN(t) || t <= now.getTime()) throw badRequest(CUSTODY.expiresAtInvalid);
  return new Date(t).toISOString();
}

/** `POST /v1/keys`: a new sub-key of the caller's account; its secret is returned once. */
export async function createSubKey(
  deps: KeysDeps,
  accountId: number,
  body: unknown,
): Promise<KeyView & { api_key: string }> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest(CUSTODY.bodyObject);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!CREATE_FIELDS.has(k)) throw badRequest(CUSTODY.unknownField(k));
  const name = b.name;
  if (typeof name !== "string" || name.trim() === "" || name.length > 64)
    throw badRequest(CUSTODY.nameInvalid);
  const scopes = parseScopes(b.scopes);
  const now = deps.clock();
  const expiresAt = parseExpiry(b.expires_at, now);
  const wallets = await parseWallets(deps, accountId, b.wallets);
  const secret = deps.vault.createApiKey();
  const key = await deps.store.insertSubKey({
    accountId,
    keyHash: secret.hash,
    name: name.trim(),
    scopes,
    wallets,
    expiresAt,
    createdAt: now.toISOString(),
  });
  return { ...keyView(key), api_key: secret.plain };
}

/** `GET /v1/keys`: the account's keys that are not revoked, root first. */
export async function listKeys(
  deps: Pick<KeysDeps, "store">,
  accountId: number,
): Promise<{ keys: KeyView[] }> {
  return { keys: (await deps.store.listKeys(accountId)).map(keyView) };
}

async function liveKey(deps: Pick<KeysDeps, "store">, accountId: number, keyId: number): Promise<KeyRecord> {
  const k = await deps.store.findKey(accountId, keyId);
  if (k === undefined || k.revokedAt !== null) throw new ApiError(404, CUSTODY.keyNotFound);
  return k;
}

/** `DELETE /v1/keys/{id}`: revokes a sub-key (every process refuses it from the next request on). */
export async function revokeKey(deps: KeysDeps, accountId: number, keyId: number): Promise<KeyView> {
  const k = await liveKey(deps, accountId, keyId);
  if (k.root) throw badRequest(CUSTODY.rootNotRevocable);
  const revokedAt = deps.clock().toISOString();
  if (!(await deps.store.updateKey(accountId, keyId, { revokedAt })))
    throw new ApiError(404, CUSTODY.keyNotFound);
  deps.onKeysChanged?.(accountId);
  return keyView({ ...k, revokedAt });
}

/** `POST /v1/keys/{id}/freeze|unfreeze`. */
export async function setKeyFrozen(
  deps: KeysDeps,
  accountId: number,
  keyId: number,
  frozen: boolean,
): Promise<KeyView> {
  const k = await liveKey(deps, accountId, keyId);
  await deps.store.updateKey(accountId, keyId, { frozen });
  deps.onKeysChanged?.(accountId);
  return keyView({ ...k, frozen });
}

/** `PUT /v1/keys/{id}/policy`: replaces the whole policy (`{}` clears it). */
export async function setKeyPolicy(
  deps: KeysDeps,
  accountId: number,
  keyId: number,
  body: unknown,
): Promise<KeyView> {
  const policy = policyView(parsePolicy(body));
  const k = await liveKey(deps, accountId, keyId);
  const stored = Object.keys(policy).length === 0 ? null : policy;
  await deps.store.updateKey(accountId, keyId, { policy: stored });
  deps.onKeysChanged?.(accountId);
  return keyView({ ...k, policy: stored });
}

/** `POST /v1/account/freeze|unfreeze` (root key only): every key of the account at once. */
export async function setAccountFrozen(
  deps: Pick<KeysDeps, "store" | "onKeysChanged">,
  accountId: number,
  frozen: boolean,
): Promise<{ frozen: boolean }> {
  await deps.store.setAccountFrozen(accountId, frozen);
  deps.onKeysChanged?.(accountId);
  return { frozen };
}
