/**
 * PostgreSQL's outcome updates commit without waiting for the WAL flush (issue 18): the writer sends the
 * pending insert to the synced pool and only the update to the relaxed one, whose sessions run with
 * synchronous_commit=off in the store's schema; an outcome so committed is visible to other sessions at once.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Keypair } from "@solana/web3.js";
import { pgExecutionWriter, updateManySql } from "../../src/store/executions/pg-execution-writer.js";
import { relaxedPgPool } from "../../src/store/executions/pg-relaxed-writes.js";
import { openStore } from "../../src/store/index.js";
import { newExecution, newWalletRecord } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("relaxed");
afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

/** A pool stand-in that records the statement names it was asked to run. */
function recorder(names: string[]) {
  return {
    query: (config: { name?: string }) => {
      names.push(config.name ?? "");
      return Promise.resolve({ rows: [{}] });
    },
  } as unknown as Pick<pg.Pool, "query">;
}

describe("pgExecutionWriter with an outcomes pool", () => {
  it("sends the insert to the synced pool and the update to the outcomes pool", async () => {
    const synced: string[] = [];
    const relaxed: string[] = [];
    const writer = pgExecutionWriter(recorder(synced), recorder(relaxed));
    const w = Keypair.generate().publicKey.toBase58();
    await writer.insert(newExecution(1, w), "2026-01-01T00:00:00.000");
    await writer.update("id-1", { status: "submitted" }, "2026-01-01T00:00:01.000");
    expect(synced).toEqual(["lasertrade_execution_insert"]);
    expect(relaxed).toEqual(["lasertrade_execution_update"]);
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)("relaxed outcome pool on PostgreSQL", () => {
  it("runs its sessions with synchronous_commit=off in the given schema", async () => {
    const pool = relaxedPgPool({ connectionString: TEST_DATABASE_URL!, max: 2, schema });
    try {
      const { rows } = await pool.query<{ sc: string; sp: string }>(
        "select current_setting('synchronous_commit') as sc, current_setting('search_path') as sp",
      );
      expect(rows[0]).toEqual({ sc: "off", sp: schema });
    } finally {
      await pool.end();
    }
  });

  it("plans a batch's outcome update as a join by primary key even while the table is empty", async () => {
    // The plan a connection's prepared statement keeps: a hash join over a sequential scan of the whole table,
    // chosen while it was small, would read every execution on every batch once it has grown.
    const store = await openStore(TEST_DATABASE_URL!, "./data", { pgSchema: schema });
    const plan = async (p: Pick<pg.Pool, "connect">): Promise<string> => {
      const c = await p.connect();
      try {
        await c.query("set plan_cache_mode = force_generic_plan");
        await c.query(`prepare batch_update as ${updateManySql()}`);
        const { rows } = await c.query<{ "QUERY PLAN": string }>(
          `explain execute batch_update('{a,b}', ${"'{t,t}', '{x,y}', ".repeat(8)}'{e1,e2}')`,
        );
        await c.query("deallocate batch_update");
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        c.release();
      }
    };
    const relaxed = relaxedPgPool({ connectionString: TEST_DATABASE_URL!, max: 1, schema });
    const plain = new pg.Pool({
      connectionString: TEST_DATABASE_URL!,
      max: 1,
      options: `-c search_path=${schema}`,
    });
    try {
      expect(await plan(plain)).toMatch(/Seq Scan on executions/); // what the settings are for
      const relaxedPlan = await plan(relaxed);
      expect(relaxedPlan).toMatch(/Index Scan using executions_pkey on executions/);
      expect(relaxedPlan).not.toMatch(/Seq Scan on executions/);
    } finally {
      await relaxed.end();
      await plain.end();
      await store.close();
    }
  });

  it("leaves the store's pending insert synced and its outcome visible to another session at once", async () => {
    const store = await openStore(TEST_DATABASE_URL!, "./data", { pgSchema: schema });
    const other = new pg.Client({
      connectionString: TEST_DATABASE_URL!,
      options: `-c search_path=${schema}`,
    });
    await other.connect();
    try {
      const w = Keypair.generate().publicKey.toBase58();
      const { apiKey } = await store.createApiKeyWithWallet(`h-${Math.random()}`, newWalletRecord(w));
      const e = newExecution(apiKey.id, w);
      await store.insertExecution(e);
      await store.updateExecution(e.id, { status: "submitted" });
      const { rows } = await other.query<{ status: string }>("select status from executions where id = $1", [
        e.id,
      ]);
      expect(rows[0]?.status).toBe("submitted");
    } finally {
      await other.end();
      await store.close();
    }
  });
});
