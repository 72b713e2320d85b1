/**
 * The prepared-statement insert and update of executions (issue 18) on SQLite and PostgreSQL: a patch changes
 * exactly the columns it names (null included) and nothing else; the insert keeps every field, u64 prices
 * exactly; an update never lands inside another request's open transaction (SQLite's single connection).
 */
import { afterAll, describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
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
afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

describe.each(engines)("execution writes on %s", (_name, open) => {
  it("insert keeps every field; a patch changes exactly the columns it names", async () => {
    const store = await open();
    try {
      const w = Keypair.generate().publicKey.toBase58();
      const { apiKey } = await store.createApiKeyWithWallet(`h-${Math.random()}`, {
        publicKey: w,
        ciphertext: "c",
        nonce: "n",
        tag: "t",
        keyId: "k",
        createdAt: "2026-01-01T00:00:00.000",
      });
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
});
