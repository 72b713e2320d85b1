/**
 * The key check a fire's claim commits with (OrderTransition.claim.liveKeys): none of the named keys is revoked
 * or frozen, and the account's root row is not frozen (a root key's own flag is ignored, as authorize ignores it).
 * Expiry is not here: it never changes after a key is made, so the fire checks it against the key it read.
 */
import { sql, type RawBuilder } from "kysely";

/** `liveKeys` as the predicate's one parameter (a JSON array of ids). */
export const liveKeysParam = (liveKeys: readonly number[] | undefined): string =>
  JSON.stringify(liveKeys ?? []);

/** True when no key of `ids` (the JSON text of liveKeysParam) is revoked or frozen. */
export function liveKeysPredicate(dialect: "sqlite" | "postgres", ids: unknown): RawBuilder<boolean> {
  const listed =
    dialect === "postgres"
      ? sql`select cast(v as integer) from jsonb_array_elements_text(cast(${ids} as jsonb)) as e(v)`
      : sql`select value from json_each(${ids})`;
  return sql<boolean>`not exists (select 1 from api_keys x where x.id in (${listed}) and (x.revoked_at is not null
    or (x.account_id is not null and x.frozen = 1) or (x.account_id is null and x.account_frozen = 1)))`;
}
