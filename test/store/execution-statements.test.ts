/**
 * The prepared-statement insert and update of executions (issue 18) on SQLite and PostgreSQL: a patch changes
 * exactly the columns it names (null included) and nothing else; the insert keeps every field, u64 prices
 * exactly; an update never lands inside another request's open transaction (SQLite's single connection); the
 * record an insert returns is the stored one (SQLite builds it from the values bound, not `returning *`).
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Keypair } from "@solana/web3.js";
import { insertParams, insertSql, insertedRow } from "../../src/store/executions/execution-statements.js";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("execstmt");
const engines: [string, () => Promise<Store>][] = [
  ["sqlite", () => openStore("sqlite::memory:", "./data")],
  ...(TEST_DATABASE_URL !== undefined
    ? [
        ["postgres", () => openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema })] as [
          string,
          () => Promise<Store>,
        ],
      ]
    : []),
];
/** A fresh API key with one wallet (a random address) on `store`. */
async function keyWithWallet(store: Store): Promise<{ w: string; apiKey: { id: number } }> {
  const w = Keypair.generate().publicKey.toBase58();
  const { apiKey } = await store.createApiKeyWithWallet(`h-${Math.random()}`, {
    publicKey: w,
    ciphertext: "c",
    nonce: "n",
    tag: "t",
    keyId: "k",
    createdAt: "2026-01-01T00:00:00.000",
  });
  return { w, apiKey };
}

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

describe.each(engines)("execution writes on %s", (_name, open) => {
  it("insert keeps every field; a patch changes exactly the columns it names", async () => {
    const store = await open();
    try {
      const { w, apiKey } = await keyWithWallet(store);
      const e = newExecution(apiKey.id, w, {
        request: { amount: "0.1", big: 18446744073709551615n },
        lastValidBlockHeight: 1234,
        idempotencyKey: "idem-1",
        computeUnitPriceMicroLamports: 9223372036854775807n, // the bigint column's maximum
      });
      const inserted = await store.insertExecution(e);
      expect(inserted).toMatchObject({
        id: e.id,
        apiKeyId: apiKey.id,
        kind: "trade",
        wallets: [w],
        signatures: ["S"],
        status: "pending",
        request: { amount: "0.1", big: "18446744073709551615" },
        response: null,
        lastValidBlockHeight: 1234,
        idempotencyKey: "idem-1",
        computeUnitPriceMicroLamports: 9223372036854775807n, // the bigint column's maximum
      });

      const a = await store.updateExecution(e.id, { status: "submitted", response: { ok: 1 } });
      expect(a).toMatchObject({ status: "submitted", response: { ok: 1 }, signatures: ["S"], error: null });
      const b = await store.updateExecution(e.id, { signatures: ["S", "T"], bundleId: "B", error: { x: 1 } });
      expect(b).toMatchObject({
        status: "submitted",
        response: { ok: 1 },
        signatures: ["S", "T"],
        bundleId: "B",
      });
      const c = await store.updateExecution(e.id, { bundleId: null, confirmationStatus: "confirmed" });
      expect(c).toMatchObject({ bundleId: null, confirmationStatus: "confirmed", error: { x: 1 } });
      expect(c!.updatedAt >= inserted.updatedAt).toBe(true);
      expect(await store.updateExecution("missing", { status: "failed" })).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("the inserted record is the stored one, every field (SQLite builds it from the values bound)", async () => {
    const store = await open();
    try {
      const { w, apiKey } = await keyWithWallet(store);
      const full = newExecution(apiKey.id, w, {
        kind: "bundle",
        wallets: [w, "Other1111111111111111111111111111111111111"],
        signatures: ["S1", "S2"],
        bundleId: "B",
        status: "submitted",
        confirmationStatus: "processed",
        request: { amount: "0.1", big: 18446744073709551615n, nested: [1, null, "x"] },
        response: { ok: true },
        error: { code: "E", detail: "d" },
        timings: { sender: 12.5 },
        lastValidBlockHeight: 2 ** 40 + 3,
        idempotencyKey: "idem-full",
        computeUnitPriceMicroLamports: 9223372036854775807n,
      });
      const bare = newExecution(apiKey.id, w, {
        request: null,
        lastValidBlockHeight: null,
        computeUnitPriceMicroLamports: null,
      });
      const bareAbsent = newExecution(apiKey.id, w, { request: undefined });
      for (const e of [full, bare, bareAbsent]) {
        const inserted = await store.insertExecution(e);
        const stored = (await store.listExecutions({ apiKeyId: apiKey.id, limit: 10 })).find(
          (r) => r.id === e.id,
        );
        expect(inserted).toEqual(stored);
      }
    } finally {
      await store.close();
    }
  });
});

describe("insertedRow", () => {
  it("is the row `select *` reads back after the insert, column for column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lt-inserted-row-"));
    try {
      const store = await openStore(`sqlite:${join(dir, "db.sqlite")}`, dir);
      const { apiKey } = await store.createApiKeyWithWallet("h", {
        publicKey: "W",
        ciphertext: "c",
        nonce: "n",
        tag: "t",
        keyId: "k",
        createdAt: "2026-01-01T00:00:00.000",
      });
      await store.close();
      const file = new BetterSqlite3(join(dir, "db.sqlite"));
      try {
        const insert = file.prepare(insertSql(() => "?", false));
        const read = file.prepare('select * from "executions" where "id" = ?');
        const cases = [
          newExecution(apiKey.id, "W", {
            bundleId: "B",
            confirmationStatus: "processed",
            request: { a: 1n },
            response: { ok: 1 },
            error: { e: 1 },
            timings: { t: 1.5 },
            lastValidBlockHeight: 2 ** 53 - 1,
            idempotencyKey: "k",
            computeUnitPriceMicroLamports: 2n ** 63n - 1n,
          }),
          newExecution(apiKey.id, "W", { lastValidBlockHeight: 0, computeUnitPriceMicroLamports: 0n }),
          newExecution(apiKey.id, "W", { request: undefined }),
        ];
        for (const e of cases) {
          const params = insertParams(e, "2026-11-26T14:00:00.000");
          insert.run(params);
          expect(insertedRow(params)).toEqual(read.get(e.id));
        }
      } finally {
        file.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
