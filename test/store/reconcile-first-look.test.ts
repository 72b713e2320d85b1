/**
 * Issue 22: a sent execution (confirm off, or a wait that ended) gets its first chain look within seconds, not
 * after the pending grace, and unsettled records back off instead of being looked at on every pass. SQLite
 * always, PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileOnce } from "../../src/domain/reconcile/reconcile.js";
import { nextLookDelayMs } from "../../src/domain/reconcile/rules.js";
import { isoNoZone, openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

describe("nextLookDelayMs", () => {
  it("doubles with age between the first look and the longest spacing", () => {
    expect(nextLookDelayMs(0, 2000, 30_000)).toBe(2000);
    expect(nextLookDelayMs(4000, 2000, 30_000)).toBe(4000);
    expect(nextLookDelayMs(600_000, 2000, 30_000)).toBe(30_000);
  });
});

function suite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`reconciliation first look on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it("looks at a submitted record 3 s old (grace 60 s), not at a pending one; backs off when unsettled", async () => {
      const wallet = `W${randomUUID().replace(/-/g, "").slice(0, 30)}`;
      const { apiKey } = await store.createApiKeyWithWallet(`hash-${randomUUID()}`, {
        publicKey: wallet,
        createdAt: isoNoZone(new Date()),
        ciphertext: "Y3Q=",
        nonce: "bm9uY2U=",
        tag: "dGFn",
        keyId: "k1",
      });
      const start = Date.now();
      const threeSecondsAgo = isoNoZone(new Date(start - 3000));
      const sentSig = `sent-${randomUUID()}`;
      const pendingSig = `pending-${randomUUID()}`;
      await store.insertExecution(
        newExecution(apiKey.id, wallet, {
          signatures: [sentSig],
          status: "submitted",
          lastValidBlockHeight: 1000,
          createdAt: threeSecondsAgo,
        }),
      );
      await store.insertExecution(
        newExecution(apiKey.id, wallet, {
          signatures: [pendingSig],
          status: "pending",
          lastValidBlockHeight: 1000,
          createdAt: threeSecondsAgo,
        }),
      );
      const asked: string[] = [];
      const rpc = {
        getBlockHeight: async () => 50,
        // Not seen yet, blockhash still valid: unsettled.
        getSignatureStatuses: async (sigs: string[]) => {
          asked.push(...sigs);
          return { slot: 1, value: sigs.map(() => null) };
        },
        getTransactionLogs: async () => null,
      };
      let now = start;
      const pass = () =>
        reconcileOnce({
          store,
          rpc,
          owner: "proc",
          clock: () => new Date(now),
          graceMs: 60_000,
          firstLookMs: 2000,
          maxLookSpacingMs: 30_000,
          leaseMs: 60_000,
        });
      const mine = (): string[] => asked.filter((s) => s === sentSig || s === pendingSig);

      await pass();
      expect(mine()).toEqual([sentSig]);
      // Unsettled: deferred by its age (3 s), so the next pass a second later leaves it alone ...
      now = start + 1000;
      await pass();
      expect(mine()).toEqual([sentSig]);
      // ... and the one after the backoff looks again.
      now = start + 3500;
      await pass();
      expect(mine()).toEqual([sentSig, sentSig]);
    });

    it("finds executions by signature (any leg)", async () => {
      const wallet = `W${randomUUID().replace(/-/g, "").slice(0, 30)}`;
      const { apiKey } = await store.createApiKeyWithWallet(`hash-${randomUUID()}`, {
        publicKey: wallet,
        createdAt: isoNoZone(new Date()),
        ciphertext: "Y3Q=",
        nonce: "bm9uY2U=",
        tag: "dGFn",
        keyId: "k1",
      });
      const legs = [`leg1${randomUUID()}`, `leg2${randomUUID()}`];
      const bundle = await store.insertExecution(
        newExecution(apiKey.id, wallet, { kind: "bundle", signatures: legs }),
      );
      await store.insertExecution(newExecution(apiKey.id, wallet, { signatures: [`other${randomUUID()}`] }));
      const found = await store.listExecutions({ apiKeyId: apiKey.id, signature: legs[1]!, limit: 10 });
      expect(found.map((r) => r.id)).toEqual([bundle.id]);
      // A prefix of a signature is not a match.
      expect(
        await store.listExecutions({ apiKeyId: apiKey.id, signature: legs[1]!.slice(0, 10), limit: 10 }),
      ).toEqual([]);
    });
  });
}

const sqliteDir = mkdtempSync(join(tmpdir(), "lasertrade-first-look-"));
suite(
  "sqlite",
  () => openStore(`sqlite:${join(sqliteDir, "store.sqlite")}`, sqliteDir),
  async () => rmSync(sqliteDir, { recursive: true, force: true }),
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("look");
  suite(
    "postgres",
    () => openStore(pgUrl, "./data", { pgSchema: schema }),
    () => dropSchema(pgUrl, schema),
  );
}
