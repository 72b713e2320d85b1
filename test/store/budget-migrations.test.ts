/**
 * Issue 29's migrations on a database that already holds data: Idempotency-Key records keep their answer and
 * go to the root key, a second key may then use the same value, and old activity rows read `refusals` 1.
 */
import { Migrator, sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { migrationProvider } from "../../src/store/migrations.js";
import { describeUpgrade } from "./migration-engines.js";

const BEFORE = "2026_11_24_hardening";

async function upgrade(db: Kysely<unknown>, dialect: "sqlite" | "postgres", schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const first = await migrator.migrateTo(BEFORE);
  expect(first.error).toBeUndefined();
  await sql`insert into api_keys (id, key_hash, created_at) values (7, 'h7', '2026-01-01')`.execute(db);
  await sql`insert into idempotency_keys (api_key_id, key, fingerprint, owner, locked_until_ms,
      response_status, response_type, response_body, created_at_ms)
    values (7, 'order-1', 'fp', 'o', 1, 200, 'application/json', '{"ok":true}', 5)`.execute(db);
  await sql`insert into activity_log (account_id, at, key_id, key_name, method, route, wallets, status)
    values (7, '2026-01-01', 7, 'root', 'POST', '/v1/x', '[]', 200)`.execute(db);
  const latest = await migrator.migrateToLatest();
  expect(latest.error).toBeUndefined();

  const rows = await sql<{ key_id: number; response_body: string }>`
    select key_id, response_body from idempotency_keys where key = 'order-1'`.execute(db);
  expect(rows.rows.map((r) => [Number(r.key_id), r.response_body])).toEqual([[7, '{"ok":true}']]);
  // Another key of the account may now hold the same value; the same key still may not.
  await sql`insert into idempotency_keys (api_key_id, key_id, key, fingerprint, owner, locked_until_ms,
      created_at_ms) values (7, 8, 'order-1', 'fp2', 'o2', 1, 6)`.execute(db);
  await expect(
    sql`insert into idempotency_keys (api_key_id, key_id, key, fingerprint, owner, locked_until_ms,
      created_at_ms) values (7, 7, 'order-1', 'fp3', 'o3', 1, 6)`.execute(db),
  ).rejects.toThrow();
  const activity = await sql<{ refusals: number | null }>`select refusals from activity_log`.execute(db);
  expect(activity.rows).toEqual([{ refusals: null }]);
  // Still append-only.
  await expect(sql`update activity_log set refusals = 5`.execute(db)).rejects.toThrow(/append-only/);
  if (dialect === "postgres") {
    // The serial continues after the copied ids.
    const next = await sql<{ id: number }>`insert into idempotency_keys (api_key_id, key_id, key,
        fingerprint, owner, locked_until_ms, created_at_ms)
      values (7, 9, 'order-2', 'fp', 'o', 1, 7) returning id`.execute(db);
    expect(Number(next.rows[0]!.id)).toBeGreaterThan(2);
  }
}

describeUpgrade("issue 29 migrations on existing data", "budget_mig", upgrade);
