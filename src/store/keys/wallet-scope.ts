/**
 * Issue 19: the rows a wallet-bound key may see. An execution (or its events) is visible when every wallet
 * that signed it is one of the key's wallets; decided in the query, so paging and cursors stay exact.
 */
import { sql, type RawBuilder, type SqlBool } from "kysely";

/** `column` (a JSON array of base58 addresses) holds no address outside `wallets`; false for no wallets. */
export function walletsWithin(
  dialect: "sqlite" | "postgres",
  column: "executions.wallets" | "events.wallets",
  wallets: readonly string[],
): RawBuilder<SqlBool> {
  if (wallets.length === 0) return sql<SqlBool>`1 = 0`;
  const list = sql.join(wallets.map((w) => sql`${w}`));
  // The JSON text is written by the service (an array of strings), so both engines' JSON readers accept it.
  return dialect === "postgres"
    ? sql<SqlBool>`not exists (select 1 from json_array_elements_text(${sql.ref(column)}::json) as w(v) where w.v not in (${list}))`
    : sql<SqlBool>`not exists (select 1 from json_each(${sql.ref(column)}) as w where w.value not in (${list}))`;
}

/**
 * The values a row's single `wallet` column must be in for a key bound to `wallets`: never an empty `in ()`, which
 * not every engine takes; the added "" is no wallet, so an empty binding matches no row.
 */
export function walletIn(wallets: readonly string[]): string[] {
  return [...wallets, ""];
}
