import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore, sqliteTarget } from "../../src/store/open-store.js";
import { withCachedStatements } from "../../src/store/sqlite-statements.js";

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
    const cached = withCachedStatements(counting, 2);
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
