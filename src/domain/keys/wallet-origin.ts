/**
 * Issue 29 finding 5: which wallets count as "the account's own" for a key's `destinations_allow`. A wallet
 * enters the account by setup, create or import; its secret is then known to whoever added it (an import brings
 * it, a create returns it), so an own wallet is also a way out. Rule: adding a wallet never gives the account a
 * destination the adding key could not already pay. A wallet counts as own only when the key that added it
 * could send anywhere itself: the root key (setup included) or a key with `transfer` and no
 * `destinations_allow`. A wallet added by any other key (a `wallets`-only key, or one restricted by
 * `destinations_allow`) is an outside address for every key with a destinations rule, until an allow-list
 * names it. Pure.
 */
import type { KeyRecord } from "../../store/index.js";
import type { Policy } from "./policy.js";
import { hasScope } from "./scopes.js";

/** Whether wallets added through `key` (with its `policy`) count as the account's own for destination rules. */
export function vouchesForWallets(key: Pick<KeyRecord, "root" | "scopes">, policy: Policy): boolean {
  return key.root || (hasScope(key, "transfer") && policy.destinationsAllow === undefined);
}
