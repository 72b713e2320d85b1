/**
 * The key check a fire's claim commits with (OrderTransition.claim.liveKeys): none of the named keys is revoked
 * or frozen, and the account's root row is not frozen (a root key's own flag is ignored, as authorize ignores it).
 * Expiry is not here: it never changes after a key is made, so the fire checks it against the key it read.
 */
import { sql, type RawBuilder } from "kysely";

/** The predicate's parameters: the firing key, the root key, the keys between them (JSON ids; usually none). */
export interface LiveKeysParams {
  liveKey: number;
  liveRoot: number;
  liveChain: string;
}

/** `liveKeys` (key first, root last) as the predicate's parameters; none named: nothing to check (-1 is no key). */
export function liveKeysParams(liveKeys: readonly number[] | undefined): LiveKeysParams {
  if (liveKeys === undefined || liveKeys.length === 0) return { liveKey: -1, liveRoot: -1, liveChain: "[]" };
  return {
    liveKey: liveKeys[0]!,
    liveRoot: liveKeys[liveKeys.length - 1]!,
    liveChain: JSON.stringify(liveKeys.slice(1, -1)),
  };
}

const DEAD = sql`(x.revoked_at is not null or (x.account_id is not null and x.frozen = 1)
  or (x.account_id is null and x.account_frozen = 1))`;

/**
 * True when none of the keys `p` names is revoked or frozen. The key and the root are two primary-key lookups; the
 * keys between them (a key made by a sub-key) are read from the JSON list only when there are any.
 */
export function liveKeysPredicate(
  dialect: "sqlite" | "postgres",
  p: { liveKey: unknown; liveRoot: unknown; liveChain: unknown },
): RawBuilder<boolean> {
  const chain =
    dialect === "postgres"
      ? sql`select cast(v as integer) from jsonb_array_elements_text(cast(${p.liveChain} as jsonb)) as e(v)`
      : sql`select value from json_each(${p.liveChain})`;
  return sql<boolean>`not exists (select 1 from api_keys x where x.id in (${p.liveKey}, ${p.liveRoot}) and ${DEAD})
    and (${p.liveChain} = '[]' or not exists (select 1 from api_keys x where x.id in (${chain}) and ${DEAD}))`;
}
