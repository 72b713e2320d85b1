/**
 * The key-version migration on a database that already holds keys (SQLite and, with TEST_DATABASE_URL,
 * PostgreSQL): every existing key starts at version 0; from then on the database counts a key's version up on a
 * change a custody decision reads (policy, freeze, revocation, scopes), whoever writes it, and not on a rename,
 * a lock write (`key_hash = key_hash`) or the wallet counter.
 */
import { Migrator, sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { migrationProvider } from "../../src/store/migrations.js";
import { describeUpgrade } from "./migration-engines.js";

const BEFORE = "2026_11_29_z_orders_fires_outcome";

async function upgrade(db: Kysely<unknown>, dialect: "sqlite" | "postgres", schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  await sql`insert into api_keys (id, key_hash, created_at, policy) values (7, 'h7', '2026-01-01', '{}')`.execute(
    db,
  );
  await sql`insert into api_keys (id, key_hash, created_at, account_id, name, scopes)
    values (8, 'h8', '2026-01-01', 7, 'bot', '["trade"]')`.execute(db);
  expect((await migrator.migrateToLatest()).error).toBeUndefined();

  const version = async (id: number): Promise<number> =>
    Number(
      (await sql<{ v: number }>`select version as v from api_keys where id = ${id}`.execute(db)).rows[0]!.v,
    );
  expect([await version(7), await version(8)]).toEqual([0, 0]);
  const counted: [string, () => Promise<unknown>, number][] = [
    ["a rename", () => sql`update api_keys set name = 'renamed' where id = 8`.execute(db), 0],
    ["a lock write", () => sql`update api_keys set key_hash = key_hash where id = 8`.execute(db), 0],
    [
      "the wallet counter",
      () => sql`update api_keys set wallet_seq = wallet_seq + 1 where id = 8`.execute(db),
      0,
    ],
    [
      "the policy",
      () => sql`update api_keys set policy = '{"max_sol_per_execution":"1"}' where id = 8`.execute(db),
      1,
    ],
    [
      "the same policy again",
      () => sql`update api_keys set policy = '{"max_sol_per_execution":"1"}' where id = 8`.execute(db),
      1,
    ],
    ["the scopes", () => sql`update api_keys set scopes = '["read"]' where id = 8`.execute(db), 2],
    ["a freeze", () => sql`update api_keys set frozen = 1 where id = 8`.execute(db), 3],
    ["a revocation", () => sql`update api_keys set revoked_at = '2026-01-02' where id = 8`.execute(db), 4],
  ];
  for (const [what, change, expected] of counted) {
    await change();
    expect(await version(8), what).toBe(expected);
  }
  // The root row: the account freeze counts there; the sub-key's changes never touched it.
  expect(await version(7)).toBe(0);
  await sql`update api_keys set account_frozen = 1 where id = 7`.execute(db);
  expect(await version(7)).toBe(1);
  // A write that sets the version itself is taken as written (no writer does; the trigger's own update is one).
  await sql`update api_keys set version = 10 where id = 7`.execute(db);
  expect(await version(7)).toBe(10);
}

describeUpgrade("the key-version migration on existing keys", "key_version_mig", upgrade);
