/**
 * sqliteDirectReads: a read runs on the connection at once when no transaction is open (even while another
 * caller holds Kysely's connection), waits for Kysely's connection while one is open, and so never sees
 * another transaction's uncommitted rows; its result is what Kysely's driver answers.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompiledQuery, Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compiledOnce } from "../../../src/store/engine/compiled-once.js";
import type { QueryRunner } from "../../../src/store/engine/query-runner.js";
import { sqliteGroupCommit } from "../../../src/store/executions/sqlite-group-commit.js";
import { sqliteDirectReads } from "../../../src/store/engine/sqlite-reads.js";
import { withCachedStatements } from "../../../src/store/engine/sqlite-statements.js";
import { holdConnection } from "./hold-connection.js";
import type { Database } from "../../../src/store/schema.js";

let dir: string;
let file: BetterSqlite3.Database;
let database: SqliteDatabase;
let db: Kysely<Database>;
let read: QueryRunner;
let viaKysely: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lt-sqlite-reads-"));
  file = new BetterSqlite3(join(dir, "db.sqlite"));
  file.pragma("journal_mode = WAL");
  file.exec("create table t (id integer primary key, v text not null unique, n integer)");
  file.exec("insert into t (v, n) values ('a', 1), ('b', null)");
  database = withCachedStatements(file);
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  viaKysely = 0;
  // Counts the reads that went through Kysely's executor.
  const counted = new Proxy(db, {
    get(target, key, receiver) {
      if (key === "executeQuery")
        return (q: CompiledQuery) => {
          viaKysely += 1;
          return target.executeQuery(q);
        };
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  read = sqliteDirectReads(counted, database, file);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const select = (v: string) => CompiledQuery.raw("select * from t where v = ?", [v]);
const tick = () => new Promise((r) => setTimeout(r, 20));

/** Holds Kysely's connection (a transaction with an uncommitted row when `trx`) until released. */
const hold = (trx: boolean) =>
  holdConnection(db, trx, CompiledQuery.raw("insert into t (v, n) values ('uncommitted', 3)"));

describe("sqliteDirectReads", () => {
  it("answers a read as Kysely's driver does, without its executor", async () => {
    const direct = await read<{ v: string; n: number | null }>(select("b"));
    expect(direct).toEqual(await db.executeQuery(select("b")));
    expect(direct).toEqual({ rows: [{ id: 2, v: "b", n: null }] });
    expect((await read(select("none"))).rows).toEqual([]);
    expect(viaKysely).toBe(0);
  });

  it("reads at once while another caller holds the connection outside a transaction", async () => {
    const h = hold(false);
    await tick();
    expect((await read<{ v: string }>(select("a"))).rows.map((r) => r.v)).toEqual(["a"]);
    expect(viaKysely).toBe(0);
    h.release(true);
    await h.done;
  });

  it("waits for an open transaction and never sees its uncommitted row", async () => {
    for (const commit of [false, true]) {
      const h = hold(true);
      await tick();
      expect(file.inTransaction).toBe(true);
      let answered = false;
      const r = read<{ v: string }>(select("uncommitted")).then((x) => {
        answered = true;
        return x;
      });
      await tick();
      expect(answered).toBe(false);
      h.release(commit);
      await h.done;
      expect((await r).rows.map((x) => x.v)).toEqual(commit ? ["uncommitted"] : []);
      file.exec("delete from t where v = 'uncommitted'");
    }
    expect(viaKysely).toBe(2);
  });

  it("sees a group commit's rows only once committed, and never inside its transaction", async () => {
    const writes = sqliteGroupCommit(db, database);
    const insert = (v: string) => writes(CompiledQuery.raw("insert into t (v) values (?)", [v]));
    const pending = Promise.all([insert("g1"), insert("g2")]);
    // Queued, not yet run: a read now sees neither.
    expect((await read(select("g1"))).rows).toEqual([]);
    await pending;
    expect((await read<{ v: string }>(select("g2"))).rows.map((x) => x.v)).toEqual(["g2"]);
    expect(viaKysely).toBe(0);
  });

  it("runs compiledOnce's reads, through a transaction when one is named", async () => {
    const byV = compiledOnce(
      db,
      ["v"],
      // (cast: the test table is not one of the schema's)
      (a: { v: string }) =>
        db
          .selectFrom("t" as never)
          .selectAll()
          .where("v" as never, "=", a.v as never),
      read,
    );
    expect(await byV({ v: "a" })).toEqual([{ id: 1, v: "a", n: 1 }]);
    const inside = await db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw("insert into t (v) values ('own')"));
      return byV({ v: "own" }, trx);
    });
    expect(inside).toEqual([{ id: 3, v: "own", n: null }]);
  });

  it("leaves a write to Kysely's path and rejects a failing read", async () => {
    const r = await read(CompiledQuery.raw("insert into t (v) values (?)", ["w"]));
    expect(r.numAffectedRows).toBe(1n);
    expect(viaKysely).toBe(1);
    await expect(read(CompiledQuery.raw("select * from missing", []))).rejects.toThrow(/no such table/);
  });

  it("waits for the connection while its statement is being iterated", async () => {
    const sql = select("a");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = db.connection().execute(async () => {
      const it = database.prepare(sql.sql).iterate(sql.parameters);
      it.next();
      await gate;
      it.return?.();
    });
    await tick();
    let answered = false;
    const r = read<{ v: string }>(sql).then((x) => {
      answered = true;
      return x;
    });
    await tick();
    expect(answered).toBe(false);
    release();
    await held;
    expect((await r).rows.map((x) => x.v)).toEqual(["a"]);
    expect(viaKysely).toBe(1);
  });
});
