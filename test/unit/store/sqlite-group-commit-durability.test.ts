/**
 * sqliteGroupCommit, the promise each caller relies on: a write is answered only after the commit that holds
 * it (so a pending execution record is on disk before anything is sent), writes run in the order they were
 * queued, and a commit that fails fails every write of its group with nothing of it left on disk.
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
let other: BetterSqlite3.Database;
let db: Kysely<Database>;
let run: QueryRunner;
/** What happened, in order: "commit" when a commit statement finished, "answer <v>" when a write resolved. */
let log: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lt-group-durable-"));
  file = new BetterSqlite3(join(dir, "db.sqlite"));
  file.pragma("journal_mode = WAL");
  file.pragma("foreign_keys = ON");
  file.exec(`create table parent (id integer primary key);
    create table t (id integer primary key, v text not null unique,
      parent_id integer references parent (id) deferrable initially deferred);`);
  file.exec("insert into parent (id) values (1)");
  // A second connection sees only what was committed.
  other = new BetterSqlite3(join(dir, "db.sqlite"), { readonly: true });
  const cached = withCachedStatements(file);
  log = [];
  const database: SqliteDatabase = {
    close: () => cached.close(),
    prepare(sql) {
      const stmt = cached.prepare(sql);
      if (sql !== "commit") return stmt;
      return {
        reader: stmt.reader,
        all: (p) => stmt.all(p),
        iterate: (p) => stmt.iterate(p),
        run: (p) => {
          const r = stmt.run(p);
          log.push("commit");
          return r;
        },
      };
    },
  };
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  run = sqliteGroupCommit(db, database);
});

afterEach(async () => {
  other.close();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const insert = (v: string, parent = 1) =>
  CompiledQuery.raw("insert into t (v, parent_id) values (?, ?) returning id, v", [v, parent]);
const committed = () =>
  (other.prepare("select v from t order by id").all() as { v: string }[]).map((r) => r.v);

describe("sqliteGroupCommit durability", () => {
  it("answers each write of a group only after the group's commit, when another connection sees it", async () => {
    const seen: string[][] = [];
    await Promise.all(
      ["a", "b", "c", "d"].map((v) =>
        run(insert(v)).then(() => {
          log.push(`answer ${v}`);
          seen.push(committed());
        }),
      ),
    );
    expect(log).toEqual(["commit", "answer a", "answer b", "answer c", "answer d"]);
    // Every answer came when all four were already committed (one shared commit).
    for (const s of seen) expect(s).toEqual(["a", "b", "c", "d"]);
  });

  it("runs the writes in the order they were queued", async () => {
    const rows = await Promise.all(
      ["w1", "w2", "w3", "w4", "w5"].map(
        async (v) => (await run<{ id: number; v: string }>(insert(v))).rows[0]!,
      ),
    );
    expect(rows.map((r) => r.v)).toEqual(["w1", "w2", "w3", "w4", "w5"]);
    const ids = rows.map((r) => r.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it("keeps the failing write's error for its own caller and commits the others of its group", async () => {
    await run(insert("taken"));
    const settled = await Promise.allSettled([run(insert("x")), run(insert("taken")), run(insert("y"))]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const failure = settled[1] as PromiseRejectedResult;
    expect(String(failure.reason)).toMatch(/UNIQUE constraint failed/);
    expect(committed()).toEqual(["taken", "x", "y"]);
  });

  it("fails every write of a group whose commit fails, and leaves none of them on disk", async () => {
    // The orphan passes its own statement (the foreign key is checked at commit) and makes the commit fail.
    const settled = await Promise.allSettled([run(insert("fine")), run(insert("orphan", 99))]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(committed()).toEqual([]);
    // The connection is usable again: the next group commits.
    await Promise.all([run(insert("after 1")), run(insert("after 2"))]);
    expect(committed()).toEqual(["after 1", "after 2"]);
  });
});
