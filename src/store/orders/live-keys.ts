/**
 * The check a fire's claim commits with (OrderTransition.claim.live): none of the named keys is revoked or frozen,
 * the account's root row is not frozen (a root key's own flag is ignored, as authorize ignores it), the keys' rows
 * are at the versions the fire decided on, and the wallet it signed with is still there. Expiry is not here: it
 * never changes after a key is made, so the fire checks it against the key it read. The versions make a decision
 * on a key read earlier (domain/orders/custody-snapshots.ts) as safe as one on a key read just now: whatever
 * changed in between (a cap, a scope, a wallet binding) fails the claim, and nothing is sent.
 */
import { sql, type RawBuilder } from "kysely";
import type { LiveCheck } from "./order-types.js";

/**
 * The predicate's parameters: the firing key, the root key, the keys between them (JSON ids; usually none), the
 * rows' `count:sum` of versions, the wallet's row id.
 */
export interface LiveKeysParams {
  liveKey: number;
  liveRoot: number;
  liveChain: string;
  liveVersions: string;
  liveWallet: number;
}

/** `live` (keys: key first, root last) as the predicate's parameters; none: nothing to check (-1 is no row). */
export function liveKeysParams(live: LiveCheck | undefined): LiveKeysParams {
  if (live === undefined)
    return { liveKey: -1, liveRoot: -1, liveChain: "[]", liveVersions: "", liveWallet: -1 };
  const keys = live.keys;
  // Deny by default: a check named must check everything (the empty values above mean "no check").
  if (
    keys.length === 0 ||
    !/^\d+:\d+$/.test(live.versions) ||
    !Number.isInteger(live.walletId) ||
    live.walletId < 0
  )
    throw new Error("a claim's live check names its keys, their versions and its wallet");
  return {
    liveKey: keys[0]!,
    liveRoot: keys[keys.length - 1]!,
    liveChain: JSON.stringify(keys.slice(1, -1)),
    liveVersions: live.versions,
    liveWallet: live.walletId,
  };
}

const DEAD = sql`(x.revoked_at is not null or (x.account_id is not null and x.frozen = 1)
  or (x.account_id is null and x.account_frozen = 1))`;

/**
 * True when none of the keys `p` names is revoked or frozen, their rows are at `p.liveVersions` and the wallet row
 * `p.liveWallet` exists (nothing named, -1 and '': true). The key and the root are primary-key lookups; the keys
 * between them (a key made by a sub-key) are read from the JSON list only when there are any.
 */
export function liveKeysPredicate(
  dialect: "sqlite" | "postgres",
  p: { liveKey: unknown; liveRoot: unknown; liveChain: unknown; liveVersions: unknown; liveWallet: unknown },
): RawBuilder<boolean> {
  const chain =
    dialect === "postgres"
      ? sql`select cast(v as integer) from jsonb_array_elements_text(cast(${p.liveChain} as jsonb)) as e(v)`
      : sql`select value from json_each(${p.liveChain})`;
  // Two primary-key lookups and the chain's, appended (the sets are disjoint): an OR of them would leave
  // PostgreSQL's generic plan of the named statement a scan of every key.
  const rows = sql`(select x.version from api_keys x where x.id in (${p.liveKey}, ${p.liveRoot})
    union all select x.version from api_keys x where ${p.liveChain} <> '[]' and x.id in (${chain})) v`;
  const versions =
    dialect === "postgres"
      ? sql`cast(count(*) as text) || ':' || cast(coalesce(sum(v.version), 0) as text)`
      : sql`count(*) || ':' || coalesce(sum(v.version), 0)`;
  return sql<boolean>`not exists (select 1 from api_keys x where x.id in (${p.liveKey}, ${p.liveRoot}) and ${DEAD})
    and (${p.liveChain} = '[]' or not exists (select 1 from api_keys x where x.id in (${chain}) and ${DEAD}))
    and (${p.liveVersions} = '' or (select ${versions} from ${rows}) = ${p.liveVersions})
    and (${p.liveWallet} = -1 or exists (select 1 from wallets w where w.id = ${p.liveWallet}))`;
}
