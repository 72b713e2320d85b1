/** Managing an account's keys: create a sub-key, list, revoke, freeze, set a policy, freeze the account. */
import { isAddress } from "../../core/addresses.js";
import { ApiError, badRequest } from "../../core/errors.js";
import { parseQueryInt } from "../../core/request-fields.js";
import { utcTimestamp, utcTimestampOrNull } from "../../core/timestamps.js";
import { KeyLimitError, type KeyRecord, type Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { canManage, type KeyPowers, type ManageVerdict } from "./can-manage.js";
import { effectivePolicy } from "./key-chain.js";
import { parseKeyName } from "./key-names.js";
import { parsePolicy, policyView, storedPolicy, type Policy } from "./policy.js";
import { refusal, SCOPES, type Scope } from "./scopes.js";
import { CUSTODY } from "./texts.js";

export interface KeysDeps {
  store: Pick<
    Store,
    | "insertSubKey"
    | "listKeys"
    | "findKey"
    | "updateKey"
    | "revokeKeyTree"
    | "setAccountFrozen"
    | "listWallets"
  >;
  vault: Pick<Vault, "createApiKey">;
  clock: () => Date;
  /** MAX_KEYS_PER_ACCOUNT: unrevoked sub-keys an account may hold; omitted = no cap. */
  maxKeysPerAccount?: number;
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
  /** Issue 29: the id of the key that created this one (the root key's for its own; null for the root key). */
  created_by: number | null;
}

const CREATE_FIELDS = new Set(["name", "scopes", "wallets", "expires_at", "policy"]);

/** Issue 29's texts of key creation (listed in docs/decisions.md, "Issue 29: key powers"). */
export const KEY_CREATE = {
  policyObject: "policy must be a JSON object (the fields of PUT /v1/keys/{id}/policy)",
  keyLimit: (max: number) =>
    `this account already holds the maximum of ${max} sub-keys (MAX_KEYS_PER_ACCOUNT); revoke one first`,
} as const;

/** The wire view of a stored key. */
export function keyView(k: KeyRecord): KeyView {
  return {
    id: k.id,
    name: k.name,
    root: k.root,
    scopes: k.scopes ?? [...SCOPES],
    wallets: k.wallets,
    expires_at: utcTimestampOrNull(k.expiresAt),
    // A root key's own flag is ignored (issue 29): the account freeze is the root key's switch.
    frozen: (k.frozen && !k.root) || k.accountFrozen,
    policy: k.policy ?? {},
    // RFC 3339 with Z, as expires_at (keys list showed both forms in one table).
    created_at: utcTimestamp(k.createdAt),
    created_by: k.root ? null : (k.createdBy ?? k.accountId),
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

function parseWalletList(v: unknown): string[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length === 0 || v.length > 100 || v.some((w) => !isAddress(w)))
    throw badRequest(CUSTODY.walletsInvalid);
  return [...new Set(v as string[])];
}

async function checkOwned(deps: KeysDeps, accountId: number, wallets: readonly string[]): Promise<void> {
  const own = new Set((await deps.store.listWallets(accountId)).map((w) => w.publicKey));
  for (const w of wallets) if (!own.has(w)) throw badRequest(CUSTODY.walletNotOwned(w));
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

/**
 * The powers canManage compares of a stored key (read with its chain). The policy is the effective one (issue
 * 29: narrowed by every key above it): what the key can actually do. So a caller never hands on more than it
 * may use, and a parent narrowed after it made a key still manages that key (its powers narrowed with it).
 */
export function keyPowers(k: KeyRecord): KeyPowers {
  return {
    id: k.id,
    root: k.root,
    scopes: k.scopes,
    wallets: k.wallets,
    policy: k.root ? storedPolicy(k.policy) : effectivePolicy(k),
    expiresAt: k.expiresAt,
  };
}

/** Throws the verdict's error when `canManage` refuses. */
function enforce(verdict: ManageVerdict): void {
  if (verdict.ok) return;
  if (verdict.status === 400) throw badRequest(verdict.detail);
  throw refusal(verdict.detail, verdict.rule);
}

function parseCreatePolicy(v: unknown, creator: KeyRecord): Policy {
  // Absent: the creator's own (effective) policy, so a capped key's keys start as capped as it is.
  if (v === undefined) return creator.root ? storedPolicy(creator.policy) : effectivePolicy(creator);
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw badRequest(KEY_CREATE.policyObject);
  return parsePolicy(v);
}

/**
 * `POST /v1/keys`: a new sub-key of the caller's account, within the caller's powers (can-manage.ts); its
 * secret is returned once. Left out, `expires_at` and `policy` are the caller's own.
 */
export async function createSubKey(
  deps: KeysDeps,
  caller: KeyRecord,
  body: unknown,
): Promise<KeyView & { api_key: string }> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest(CUSTODY.bodyObject);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!CREATE_FIELDS.has(k)) throw badRequest(CUSTODY.unknownField(k));
  const name = parseKeyName(b.name);
  const scopes = parseScopes(b.scopes);
  const now = deps.clock();
  const expiresAt = parseExpiry(b.expires_at, now) ?? caller.expiresAt;
  const wallets = parseWalletList(b.wallets);
  const policy = parseCreatePolicy(b.policy, caller);
  const target: KeyPowers = { id: 0, root: false, scopes, wallets, policy, expiresAt };
  enforce(canManage(keyPowers(caller), target, { action: "create" }));
  if (wallets !== null) await checkOwned(deps, caller.accountId, wallets);
  const stored = policyView(policy);
  const secret = deps.vault.createApiKey();
  try {
    const key = await deps.store.insertSubKey(
      {
        accountId: caller.accountId,
        keyHash: secret.hash,
        name,
        scopes,
        wallets,
        expiresAt,
        policy: Object.keys(stored).length === 0 ? null : stored,
        createdAt: now.toISOString(),
        // Issue 29: the chain the key is held to; the root key's keys start one (null).
        createdBy: caller.root ? null : caller.id,
      },
      deps.maxKeysPerAccount,
    );
    return { ...keyView(key), api_key: secret.plain };
  } catch (err) {
    if (err instanceof KeyLimitError) throw new ApiError(409, KEY_CREATE.keyLimit(err.max));
    throw err;
  }
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

/**
 * `DELETE /v1/keys/{id}`: revokes a sub-key and every key it created, transitively (issue 29); every process
 * refuses them from the next request on.
 */
export async function revokeKey(deps: KeysDeps, caller: KeyRecord, keyId: number): Promise<KeyView> {
  const k = await liveKey(deps, caller.accountId, keyId);
  enforce(canManage(keyPowers(caller), keyPowers(k), { action: "revoke" }));
  const revokedAt = deps.clock().toISOString();
  const revoked = await deps.store.revokeKeyTree(caller.accountId, keyId, revokedAt);
  if (!revoked.includes(keyId)) throw new ApiError(404, CUSTODY.keyNotFound);
  deps.onKeysChanged?.(caller.accountId);
  return keyView({ ...k, revokedAt });
}

/** `POST /v1/keys/{id}/freeze|unfreeze` (the root key: unfreeze only, which clears an older flag). */
export async function setKeyFrozen(
  deps: KeysDeps,
  caller: KeyRecord,
  keyId: number,
  frozen: boolean,
): Promise<KeyView> {
  const k = await liveKey(deps, caller.accountId, keyId);
  enforce(canManage(keyPowers(caller), keyPowers(k), { action: frozen ? "freeze" : "unfreeze" }));
  await deps.store.updateKey(caller.accountId, keyId, { frozen });
  deps.onKeysChanged?.(caller.accountId);
  return keyView({ ...k, frozen });
}

/** `PUT /v1/keys/{id}/policy`: replaces the whole policy (`{}` clears it), within the caller's powers. */
export async function setKeyPolicy(
  deps: KeysDeps,
  caller: KeyRecord,
  keyId: number,
  body: unknown,
): Promise<KeyView> {
  const parsed = parsePolicy(body);
  const k = await liveKey(deps, caller.accountId, keyId);
  enforce(canManage(keyPowers(caller), keyPowers(k), { action: "policy", policy: parsed }));
  const policy = policyView(parsed);
  const stored = Object.keys(policy).length === 0 ? null : policy;
  await deps.store.updateKey(caller.accountId, keyId, { policy: stored });
  deps.onKeysChanged?.(caller.accountId);
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
