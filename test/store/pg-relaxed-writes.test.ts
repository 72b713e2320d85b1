/**
 * PostgreSQL's outcome updates commit without waiting for the WAL flush (issue 18): the writer sends the
 * pending insert to the synced pool and only the update to the relaxed one, whose sessions run with
 * synchronous_commit=off in the store's schema; an outcome so committed is visible to other sessions at once.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Keypair } from "@solana/web3.js";
import { pgExecutionWriter } from "../../src/store/pg-execution-writer.js";
import { relaxedPgPool } from "../../src/store/pg-relaxed-writes.js";
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
