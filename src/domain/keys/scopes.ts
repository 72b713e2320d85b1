/** Key scopes and the pure authorization of one request (issue 19): scope, freeze, expiry, revocation. */
import { ApiError } from "../../core/errors.js";
import type { KeyRecord } from "../../store/index.js";
import { chainRefusal } from "./key-chain.js";
import { CUSTODY } from "./texts.js";

/** `build`: build unsigned transactions for outside wallets only (issue 32); nothing is signed or sent. */
export const SCOPES = ["read", "trade", "create", "transfer", "wallets", "keys", "build"] as const;
export type Scope = (typeof SCOPES)[number];

/** A route's requirement: one scope, or `root` (the account's root key only, e.g. account freeze). */
export type RouteScope = Scope | "root";

/** A 403 refusal carrying its `rule` in the body. */
export function refusal(detail: string, rule: string): ApiError {
  return new ApiError(403, detail, { rule });
}

/** Whether the key holds the scope (a root key holds every scope; `trade` includes `build`). */
export function hasScope(key: { readonly scopes: readonly string[] | null }, scope: Scope): boolean {
  if (key.scopes === null || key.scopes.includes(scope)) return true;
  return scope === "build" && key.scopes.includes("trade");
}

/** What a request does: `read` (GET, HEAD, the stream) or `write` (anything else). */
export type Access = "read" | "write";

/**
 * Decides whether `key` may call a route needing `required` at `now`: revoked or expired (the key or a key
 * above it) → 401, frozen (key, account or a key above it; a root key's own flag does not count) → 403 `frozen`
 * on a write, scope missing → 403 `scope`. Wallet bindings and policies are checked later, where the wallets and
 * amounts are known.
 */
export function authorize(
  key: KeyRecord,
  required: RouteScope | undefined,
  now: Date,
  access: Access = "write",
): void {
  if (key.revokedAt !== null) throw new ApiError(401, CUSTODY.keyRevoked);
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime())
    throw new ApiError(401, CUSTODY.keyExpired);
  // A key is no more alive than the keys above it (revoked or expired → 401 before any freeze).
  const chain = chainRefusal(key, now);
  if (chain !== null && chain.status === 401) throw chain;
  // A freeze stops what moves money or changes keys, wallets and webhooks (every write, deny by default); reads
  // stay open within the key's scope and wallet binding, so an operator can look at what a frozen key holds. A
  // leaked key is revoked, not frozen.
  if (access === "write") {
    if (key.accountFrozen) throw refusal(CUSTODY.accountFrozen, "frozen");
    // A root key's own flag is ignored: only the account freeze stops it, so it can always lift that.
    if (key.frozen && !key.root) throw refusal(CUSTODY.keyFrozen, "frozen");
    if (chain !== null) throw chain;
  }
  if (required === undefined) return;
  if (required === "root") {
    if (!key.root) throw refusal(CUSTODY.rootOnly, "scope");
    return;
  }
  if (!hasScope(key, required)) throw refusal(CUSTODY.missingScope(required), "scope");
}

/** Whether a wallet-bound key may use `wallet` (an unbound key may use every wallet of its account). */
export function mayUseWallet(key: Pick<KeyRecord, "wallets">, wallet: string): boolean {
  return key.wallets === null || key.wallets.includes(wallet);
}

/** 403 `wallet` naming the wallet the key is not bound to. */
export function walletRefusal(wallet: string): ApiError {
  return refusal(CUSTODY.walletNotAllowed(wallet), "wallet");
}
