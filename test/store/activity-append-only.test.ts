/**
 * Issue 29 finding 16: the activity log's append-only triggers had gaps. On SQLite `INSERT OR REPLACE` (and
 * `REPLACE`) rewrote a row: REPLACE deletes the old row without firing delete triggers. On PostgreSQL the row
 * triggers do not cover `TRUNCATE`. Raw SQL as the service's own database user, on SQLite (always) and
 * PostgreSQL (when TEST_DATABASE_URL is set); the rows are unchanged afterwards, and the retention of the
 * events outbox (which legitimately deletes) still works.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

interface Engine {
  name: string;
  open: () => Promise<Store>;
  /** Runs raw SQL (one or more statements) as the service's own database user would. */
  raw: (q: string) => Promise<void>;
  /** The REPLACE statements of this engine that would rewrite row `id` (none on PostgreSQL). */
  rewrites: (id: number) => string[];
  /** The statements that would empty the table in one go. */
  empties: string[];
  cleanup: () => Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), "activity-append-only-"));
const sqliteFile = join(dir, "db.sqlite");
const schema = freshSchemaName("aao");
const columns =
  "id, account_id, at, key_id, key_name, method, route, wallets, execution_id, status, rule, ip";
const forged = (id: number, accountId = 1) =>
  `(${id}, ${accountId}, '2026-01-01T00:00:00.000Z', 1, 'root', 'GET', '/forged', '[]', null, 200, null, null)`;

const engines: Engine[] = [
  {
    name: "sqlite",
    open: () => openStore(`sqlite:${sqliteFile}`, dir),
    raw: async (q) => {
      const db = new BetterSqlite3(sqliteFile);
      try {
        db.exec(q);
      } finally {
        db.close();
      }
    },
    rewrites: (id) => [
      `insert or replace into activity_log (${columns}) values ${forged(id)}`,
      `replace into activity_log (${columns}) values ${forged(id)}`,
      `insert into activity_log (${columns}) values ${forged(id)} on conflict (id) do update set route = '/forged'`,
    ],
    // SQLite has no TRUNCATE: an unqualified DELETE is its truncate optimization (off when a trigger exists).
    empties: ["delete from activity_log"],
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  },
  ...(TEST_DATABASE_URL !== undefined
    ? [
        {
          name: "postgres",
          open: () => openStore(TEST_DATABASE_URL, dir, { pgSchema: schema, pgPoolSize: 2 }),
          raw: async (q: string) => {
            const c = new pg.Client({
              connectionString: TEST_DATABASE_URL,
              options: `-c search_path=${schema}`,
            });
            await c.connect();
            try {
              await c.query(q);
            } finally {
              await c.end();
            }
          },
          rewrites: (id: number) => [
            `insert into activity_log (${columns}) values ${forged(id)} on conflict (id) do update set route = '/forged'`,
          ],
          empties: [
            "truncate activity_log",
            "truncate table activity_log restart identity",
            "truncate activity_log cascade",
          ],
          cleanup: () => dropSchema(TEST_DATABASE_URL as string, schema),
        },
      ]
    : []),
];

describe.each(engines)("the activity log on $name", (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await engine.open();
  });
  afterAll(async () => {
    await store.close();
    await engine.cleanup();
  });

  /** Writes one row for `accountId` through the store and returns the account's rows. */
  async function oneRow(accountId: number) {
    await store.insertActivity({
      accountId,
      at: new Date().toISOString(),
      keyId: accountId,
      keyName: "root",
      method: "POST",
      route: "/v1/keys",
      wallets: [],
      executionId: null,
      status: 201,
      rule: null,
      ip: "127.0.0.1",
    });
    const rows = await store.listActivity({ accountId, limit: 10 });
    expect(rows).toHaveLength(1);
    return rows;
  }

  it("refuses every statement that would rewrite a row in place (REPLACE, upsert)", async () => {
    const rows = await oneRow(101);
    for (const q of engine.rewrites(rows[0]!.id))
      await expect(engine.raw(q), q).rejects.toThrow(/append-only/);
    expect(await store.listActivity({ accountId: 101, limit: 10 })).toEqual(rows);
  });

  it("refuses emptying the table (TRUNCATE on PostgreSQL)", async () => {
    const rows = await oneRow(102);
    for (const q of engine.empties) await expect(engine.raw(q), q).rejects.toThrow(/append-only/);
    expect(await store.listActivity({ accountId: 102, limit: 10 })).toEqual(rows);
  });

  it("still appends: new rows, with or without an explicit new id", async () => {
    await oneRow(103);
    await engine.raw(`insert into activity_log (${columns}) values ${forged(1_000_000, 104)}`);
    const noId = forged(0, 104).replace("(0, ", "(");
    await engine.raw(`insert into activity_log (${columns.replace("id, ", "")}) values ${noId}`);
    expect(await store.listActivity({ accountId: 104, limit: 10 })).toHaveLength(2);
  });

  it("the events outbox keeps its retention (its rows may be deleted)", async () => {
    expect(typeof (await store.purgeEvents(new Date(Date.now() + 86_400_000).toISOString()))).toBe("number");
  });
});
