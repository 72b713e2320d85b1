/**
 * sqliteDirectReads: a select runs on the cached statements while no transaction is open (the same rows as
 * Kysely's), and waits for Kysely's lock while one is, so it never sees uncommitted writes.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompiledQuery, Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { QueryRunner } from "../../../src/store/query-runner.js";
import { sqliteDirectReads } from "../../../src/store/sqlite-direct-reads.js";
import { withCachedStatements } from "../../../src/store/sqlite-statements.js";
import type { Database } from "../../../src/store/schema.js";

let dir: string;
let file: BetterSqlite3.Database;
let db: Kysely<Database>;
let read: QueryRunner;
let prepared: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lt-direct-reads-"));
  file = new BetterSqlite3(join(dir, "db.sqlite"));
  file.pragma("journal_mode = WAL");
  file.exec("create table t (id integer primary key, v text not null)");
  file.exec("insert into t (v) values ('a'), ('b')");
  const cached = withCachedStatements(file);
  prepared = [];
  // Records which statements ran through the driver's Kysely path (it prepares "begin", selects, ...).
  const database: SqliteDatabase = {
    close: () => cached.close(),
    prepare(sql) {
      prepared.push(sql);
      return cached.prepare(sql);
    },
  };
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  read = sqliteDirectReads(db, cached, file);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const select = (v: string) => CompiledQuery.raw('select "id", "v" from "t" where "v" = ?', [v]);

describe("sqliteDirectReads", () => {
  it("answers a select with the rows Kysely's driver answers, without going through it", async () => {
    const direct = await read<{ id: number; v: string }>(select("b"));
    expect(prepared).toEqual([]);
    expect(direct).toEqual(await db.executeQuery(select("b")));
    expect(direct.rows).toEqual([{ id: 2, v: "b" }]);
  });

  it("waits for an open transaction instead of reading its uncommitted writes", async () => {
    let inside!: () => void;
    const held = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const trx = db.transaction().execute(async (t) => {
      await t.executeQuery(CompiledQuery.raw("insert into \"t\" (v) values ('c')", []));
      inside();
      await gate;
      throw new Error("rolled back");
    });
    await held;
    expect(file.inTransaction).toBe(true);
    let answered = false;
    const pending = read<{ v: string }>(select("c")).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    release();
    await expect(trx).rejects.toThrow("rolled back");
    expect((await pending).rows).toEqual([]);
  });

  it("sends anything but a select through Kysely", async () => {
    const r = await read(CompiledQuery.raw('insert into "t" (v) values (\'d\') returning "id"', []));
    expect(r.rows).toEqual([{ id: 3 }]);
    expect(prepared).toContain('insert into "t" (v) values (\'d\') returning "id"');
  });
});
