/**
 * Issue 33: a ledger that cannot take a fill never costs the trade its record: the position update runs in a
 * savepoint of the outcome's transaction and is rolled back alone (SQLite file and PostgreSQL schema, corrupted
 * behind the store's back); the rebuild then repairs the position from the history.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { account, address } from "./positions-fixture.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("posfail");
const dir = mkdtempSync(join(tmpdir(), "posfail-"));
const file = join(dir, "db.sqlite");

/** Runs one SQL statement behind the store's back. */
type Corrupt = (sqlText: string) => Promise<void>;

const engines: [string, () => Promise<Store>, Corrupt][] = [
  [
    "sqlite",
    () => openStore(`sqlite:${file}`, dir),
    async (q) => {
      const db = new BetterSqlite3(file);
      db.prepare(q).run();
      db.close();
    },
  ],
  ...(TEST_DATABASE_URL !== undefined
    ? [
        [
          "postgres",
          () => openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema }),
          async (q: string) => {
            const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
            await c.connect();
            await c.query(`set search_path to ${schema}`);
            await c.query(q);
            await c.end();
          },
        ] as [string, () => Promise<Store>, Corrupt],
      ]
    : []),
];

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

describe.each(engines)("a failing ledger on %s", (_name, open, corrupt) => {
  it("records the outcome anyway; the rebuild repairs the position", async () => {
    const store = await open();
    try {
      const { id: accountId, wallet } = await account(store);
      const mint = address();
      const fill = (tokens: string, sol: string) => ({
        sol_change_lamports: sol,
        fee_lamports: "5000",
        tip_lamports: "0",
        rent_lamports: "0",
        token_change: tokens,
      });
      const trade = async (tokens: string, sol: string, at: string) => {
        const e = newExecution(accountId, wallet, { request: { action: "buy", mint }, createdAt: at });
        await store.insertExecution(e);
        return store.updateExecution(e.id, {
          status: "confirmed",
          response: { mint, fill: fill(tokens, sol) },
        });
      };
      await trade("10", "-1000", "2026-01-01T00:00:01.000");
      await corrupt(`update positions set figures = 'not json'`);
      const second = await trade("5", "-600", "2026-01-01T00:00:02.000");
      expect(second?.status).toBe("confirmed");
      expect(await store.listPositionEntries({ apiKeyId: accountId })).toHaveLength(1);
      await store.rebuildPositions(accountId);
      const p = await store.findPosition(accountId, wallet, mint);
      expect([p?.figures.tokensHeld, p?.figures.costBasis]).toEqual([15n, 1600n]);
    } finally {
      await store.close();
    }
  });
});
