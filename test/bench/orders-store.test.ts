/**
 * The orders benches' `--store`: in memory (no URL), a SQLite file in a fresh directory removed after, or PostgreSQL
 * in a fresh schema dropped after (needs TEST_DATABASE_URL); anything else is refused.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { sandboxStore, storeOptions } from "../../bench/orders-store.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

describe("orders bench store", () => {
  it("is in memory by name, with nothing to remove", async () => {
    const s = sandboxStore("memory");
    expect(s).toMatchObject({ kind: "memory", databaseUrl: undefined, pgSchema: undefined });
    expect(storeOptions(s)).toEqual({});
    await s.remove();
  });

  it("is a SQLite file in a fresh directory, removed with what the store wrote there", async () => {
    const s = sandboxStore("file");
    expect(s.kind).toBe("file");
    expect(s.databaseUrl).toMatch(/^sqlite:\/.*orders-bench-.*\/lasertrade\.sqlite$/);
    expect(storeOptions(s)).toEqual({ databaseUrl: s.databaseUrl });
    const file = s.databaseUrl!.slice("sqlite:".length);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "x");
    await s.remove();
    expect(existsSync(dirname(file))).toBe(false);
  });

  it("needs a PostgreSQL URL for postgres, and refuses any other name", () => {
    expect(() => sandboxStore("postgres", "")).toThrow("--store postgres: set TEST_DATABASE_URL");
    expect(() => sandboxStore("disk")).toThrow('--store: memory, file or postgres (got "disk")');
  });

  it.skipIf(TEST_DATABASE_URL === undefined)("is a fresh PostgreSQL schema, dropped after", async () => {
    const s = sandboxStore("postgres", TEST_DATABASE_URL);
    expect(storeOptions(s)).toEqual({ databaseUrl: TEST_DATABASE_URL, pgSchema: s.pgSchema });
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    const exists = async () =>
      (await c.query("select 1 from information_schema.schemata where schema_name = $1", [s.pgSchema]))
        .rowCount;
    try {
      await c.query(`create schema ${s.pgSchema}`);
      expect(await exists()).toBe(1);
      await s.remove();
      expect(await exists()).toBe(0);
    } finally {
      await c.end();
    }
  });
});
