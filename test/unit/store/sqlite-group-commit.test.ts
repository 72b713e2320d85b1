/**
 * sqliteGroupCommit: writes queued in one event-loop turn commit together (one commit), each answered with its
 * own result after the commit; a failing write fails alone; a group never lands inside another transaction.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompiledQuery, Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { QueryRunner } from "../../../src/store/engine/query-runner.js";
import { sqliteGroupCommit } from "../../../src/store/executions/sqlite-group-commit.js";
import { withCachedStatements } from "../../../src/store/engine/sqlite-statements.js";
import type { Database } from "../../../src/store/schema.js";

let dir: string;
let file: BetterSqlite3.Database;
let db: Kysely<Database>;
let run: QueryRunner;
let commits: number;
let relaxedCommits: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lt-group-commit-"));
  file = new BetterSqlite3(join(dir, "db.sqlite"));
  file.pragma("journal_mode = WAL");
  file.exec("create table t (id integer primary key, v text not null unique)");
  const cached = withCachedStatements(file);
  commits = 0;
  relaxedCommits = 0;
  // Counts the commits the group issues (its one transaction per group).
  const database: SqliteDatabase = {
    close: () => cached.close(),
    prepare(sql) {
      if (sql === "commit") commits += 1;
      if (sql === "pragma synchronous = NORMAL") relaxedCommits += 1;
      return cached.prepare(sql);
    },
  };
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  run = sqliteGroupCommit(db, database, (sql) => sql.startsWith("update"));
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (v: string) => CompiledQuery.raw("insert into t (v) values (?) returning *", [v]);
const values = () => (file.prepare("select v from t order by id").all() as { v: string }[]).map((r) => r.v);

describe("sqliteGroupCommit", () => {
  it("commits the writes of one turn together and answers each with its own rows", async () => {
    const results = await Promise.all(["a", "b", "c"].map((v) => run<{ v: string }>(insert(v))));
    expect(results.map((r) => r.rows[0]?.v)).toEqual(["a", "b", "c"]);
    expect(commits).toBe(1);
    expect(values()).toEqual(["a", "b", "c"]);
  });

  it("commits a group of relaxed writes without a sync, and a mixed group with one", async () => {
    await run(insert("a"));
    const update = (v: string) => CompiledQuery.raw("update t set v = v || ? where id = 1", [v]);
    await Promise.all([run(update("1")), run(update("2"))]);
    expect([commits, relaxedCommits]).toEqual([1, 1]);
    await Promise.all([run(update("3")), run(insert("b"))]);
    expect([commits, relaxedCommits]).toEqual([2, 1]);
    expect(values()).toEqual(["a123", "b"]);
  });

  it("runs a lone write as its own statement", async () => {
    const r = await run(CompiledQuery.raw("insert into t (v) values (?)", ["x"]));
    expect(r.numAffectedRows).toBe(1n);
    expect(values()).toEqual(["x"]);
  });

  it("fails only the write that fails; the others of its group commit", async () => {
    await run(insert("dup"));
    const settled = await Promise.allSettled([run(insert("a")), run(insert("dup")), run(insert("b"))]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(values()).toEqual(["dup", "a", "b"]);
  });

  it("waits for another open transaction instead of writing inside it", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const trx = db
      .transaction()
      .execute(async (t) => {
        await t.executeQuery(CompiledQuery.raw("insert into t (v) values (?)", ["rolled back"]));
        await held;
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    const write = run(insert("kept"));
    await new Promise((r) => setTimeout(r, 20));
    release();
    await trx;
    await write;
    expect(values()).toEqual(["kept"]);
  });
});
