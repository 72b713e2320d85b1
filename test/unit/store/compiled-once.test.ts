/** compiledOnce: the query compiled once answers as the query built per call does, with any arguments. */
import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { compiledOnce } from "../../../src/store/engine/compiled-once.js";
import type { Database } from "../../../src/store/schema.js";

const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }) });
afterAll(() => db.destroy());

describe("compiledOnce", () => {
  it("runs the same SQL with each call's arguments, nulls included", async () => {
    await db.schema
      .createTable("webhooks")
      .addColumn("id", "text")
      .addColumn("disabled", "integer")
      .addColumn("url", "text")
      .execute();
    const insert = compiledOnce(
      db,
      ["id", "disabled", "url"],
      (a: { id: string; disabled: number; url: string | null }) =>
        // (cast: the test table has only three of the real table's columns)
        db.insertInto("webhooks").values(a as never),
    );
    await insert({ id: "a", disabled: 0, url: "https://a" });
    await insert({ id: "b", disabled: 1, url: null });
    await insert({ id: "c", disabled: 0, url: "https://c" });
    const byFlag = compiledOnce(db, ["disabled"], (a: { disabled: number }) =>
      db.selectFrom("webhooks").select(["id", "url"]).where("disabled", "=", a.disabled).orderBy("id"),
    );
    expect(await byFlag({ disabled: 0 })).toEqual([
      { id: "a", url: "https://a" },
      { id: "c", url: "https://c" },
    ]);
    expect(await byFlag({ disabled: 1 })).toEqual([{ id: "b", url: null }]);
    const built = await db
      .selectFrom("webhooks")
      .select(["id", "url"])
      .where("disabled", "=", 0)
      .orderBy("id")
      .execute();
    expect(await byFlag({ disabled: 0 })).toEqual(built);
  });

  it("runs on the connection a call names (a transaction sees its own uncommitted rows)", async () => {
    const byId = compiledOnce(db, ["id"], (a: { id: string }) =>
      db.selectFrom("webhooks").select("url").where("id", "=", a.id),
    );
    let inside: unknown;
    const rollback = new Error("roll back");
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto("webhooks")
          .values({ id: "t", disabled: 0, url: "https://t" } as never)
          .execute();
        inside = await byId({ id: "t" }, trx);
        throw rollback;
      })
      .catch((e: unknown) => e);
    expect(outcome).toBe(rollback);
    expect(inside).toEqual([{ url: "https://t" }]);
    expect(await byId({ id: "t" })).toEqual([]);
  });

  it("refuses a query that does not take an argument as a parameter", () => {
    expect(() =>
      compiledOnce(db, ["disabled"], () => db.selectFrom("webhooks").selectAll().where("disabled", "=", 0)),
    ).toThrow('compiledOnce: "disabled" is not a parameter of the query');
  });
});
