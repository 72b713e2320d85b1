import BetterSqlite3 from "better-sqlite3";
import { Keypair } from "@solana/web3.js";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { kyselyStore } from "../../../src/store/kysely-store.js";
import { migrationProvider } from "../../../src/store/migrations.js";
import {
  SQLITE_CACHE_KIB,
  applySqlitePragmas,
  openStore,
  sqliteTarget,
} from "../../../src/store/engine/open-store.js";
import type { Database } from "../../../src/store/schema.js";
import { newExecution } from "../../helpers/fixtures.js";
import {
  isExecutionOutcomeWrite,
  isRelaxedGroupWrite,
  withCachedStatements,
} from "../../../src/store/engine/sqlite-statements.js";

describe("sqliteTarget", () => {
  it("reads the path and the synchronous option of a sqlite: URL (default FULL)", () => {
    expect(sqliteTarget("sqlite::memory:", "./data")).toEqual({ path: ":memory:", synchronous: "FULL" });
    expect(sqliteTarget("sqlite:/tmp/a.sqlite", "./data")).toEqual({
      path: "/tmp/a.sqlite",
      synchronous: "FULL",
    });
    expect(sqliteTarget("sqlite:/tmp/a.sqlite?synchronous=normal", "./data")).toEqual({
      path: "/tmp/a.sqlite",
      synchronous: "NORMAL",
    });
    expect(sqliteTarget("sqlite://:memory:?synchronous=FULL", "./data")).toEqual({
      path: ":memory:",
      synchronous: "FULL",
    });
  });

  it("refuses unknown options and values with a message naming them", () => {
    expect(() => sqliteTarget("sqlite:/tmp/a.sqlite?synchronous=off", "./data")).toThrow(/full" or "normal/);
    expect(() => sqliteTarget("sqlite:/tmp/a.sqlite?cache=shared", "./data")).toThrow(
      /unknown SQLite option "cache"/,
    );
  });

  it("opens a store with the option", async () => {
    const store = await openStore("sqlite::memory:?synchronous=normal", "./data");
    await store.close();
    await store.close(); // a second close is a no-op on SQLite too
  });
});

describe("applySqlitePragmas", () => {
  it("sets WAL, the synchronous level, foreign keys and a 2 MB page cache (better-sqlite3's build default is 16 MB)", () => {
    const db = new BetterSqlite3(":memory:");
    applySqlitePragmas(db, "NORMAL");
    expect(db.pragma("cache_size", { simple: true })).toBe(-SQLITE_CACHE_KIB);
    expect(SQLITE_CACHE_KIB).toBe(2000);
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
    db.close();
  });
});

describe("withCachedStatements", () => {
  it("prepares each SQL text once and keeps at most `capacity` statements", () => {
    const db = new BetterSqlite3(":memory:");
    let prepared = 0;
    const counting = {
      close: () => db.close(),
      prepare: (sql: string) => {
        prepared++;
        return db.prepare(sql);
      },
    };
    const cached = withCachedStatements(counting, { capacity: 2 });
    const a = cached.prepare("select 1");
    expect(cached.prepare("select 1")).toBe(a);
    cached.prepare("select 2");
    cached.prepare("select 3"); // evicts "select 1"
    expect(prepared).toBe(3);
    expect(cached.prepare("select 1")).not.toBe(a);
    expect(prepared).toBe(4);
    cached.close();
  });
});

describe("relaxed outcome writes", () => {
  it("commit an execution's outcome with synchronous=NORMAL and go back to FULL, also inside a transaction", () => {
    const db = new BetterSqlite3(":memory:");
    db.exec('create table "executions" (id text primary key, status text)');
    db.pragma("synchronous = FULL");
    const levels: number[] = [];
    const cached = withCachedStatements(db, { relaxed: isExecutionOutcomeWrite });
    cached.prepare('insert into "executions" values (?, ?)').run(["a", "pending"]);
    const update = cached.prepare('update "executions" set "status" = ? where "id" = ? returning *');
    expect(update.reader).toBe(true);
    expect(update.all(["submitted", "a"])).toEqual([{ id: "a", status: "submitted" }]);
    levels.push(db.pragma("synchronous", { simple: true }) as number);
    db.exec("begin");
    expect(update.all(["confirmed", "a"])).toHaveLength(1);
    db.exec("commit");
    levels.push(db.pragma("synchronous", { simple: true }) as number);
    // 2 = FULL: the level is restored after each relaxed write.
    expect(levels).toEqual([2, 2]);
    expect(isExecutionOutcomeWrite('insert into "executions"')).toBe(false);
    cached.close();
  });

  it("can be prepared for the first time inside a transaction (a group commit's)", () => {
    const db = new BetterSqlite3(":memory:");
    db.exec('create table "executions" (id text primary key, status text)');
    db.pragma("synchronous = FULL");
    const cached = withCachedStatements(db, { relaxed: isExecutionOutcomeWrite });
    cached.prepare('insert into "executions" values (?, ?)').run(["a", "pending"]);
    db.exec("begin");
    const update = cached.prepare('update "executions" set "status" = ? where "id" = ? returning *');
    expect(update.all(["submitted", "a"])).toEqual([{ id: "a", status: "submitted" }]);
    db.exec("commit");
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    cached.close();
  });

  it("are what the store sends for an outcome, and the pending insert is not", async () => {
    const raw = new BetterSqlite3(":memory:");
    const seen: string[] = [];
    const logging = {
      close: () => raw.close(),
      prepare: (sql: string) => (seen.push(sql), raw.prepare(sql)),
    };
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: logging }) });
    await new Migrator({ db, provider: migrationProvider("sqlite") }).migrateToLatest();
    const store = kyselyStore(db, "sqlite");
    const wallet = Keypair.generate().publicKey.toBase58();
    const { apiKey } = await store.createApiKeyWithWallet("hash", {
      publicKey: wallet,
      createdAt: "2026-01-01T00:00:00.000",
      ciphertext: "c",
      nonce: "n",
      tag: "t",
      keyId: "k",
    });
    const record = newExecution(apiKey.id, wallet);
    seen.length = 0;
    await store.insertExecution(record);
    expect(seen.filter(isExecutionOutcomeWrite)).toEqual([]);
    await store.updateExecution(record.id, { status: "submitted", confirmationStatus: null });
    expect(seen.filter(isExecutionOutcomeWrite)).toHaveLength(1);
    // The activity row, written after the send, commits relaxed too (issue 18); the pending insert never does.
    seen.length = 0;
    await store.insertActivity({
      accountId: apiKey.id,
      at: "2026-01-01T00:00:01.000",
      keyId: apiKey.id,
      keyName: "root",
      method: "POST",
      route: "/v1/trades/execute",
      wallets: [wallet],
      executionId: record.id,
      status: 200,
      rule: null,
      ip: null,
    });
    expect(seen.filter(isRelaxedGroupWrite)).toHaveLength(1);
    expect(isRelaxedGroupWrite('insert into "executions" ("id") values (?)')).toBe(false);
    await db.destroy();
  });
});
