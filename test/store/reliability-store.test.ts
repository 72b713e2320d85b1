/**
 * Idempotency keys and the reconciliation lease on SQLite (always) and PostgreSQL (when TEST_DATABASE_URL is
 * set). "Two processes" are two stores opened on the same file or schema, each with its own connection(s).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignatureStatus } from "../../src/chain/rpc-client.js";
import {
  beginIdempotent,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
} from "../../src/domain/execution/idempotency.js";
import { reconcileOnce } from "../../src/domain/reconcile/reconcile.js";
import { isoNoZone, openStore, type ExecutionRecord, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

let counter = 0;

async function newKey(store: Store): Promise<{ apiKeyId: number; wallet: string }> {
  counter += 1;
  const wallet = `Wallet${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const r = await store.createApiKeyWithWallet(`hash-${counter}-${randomUUID()}`, {
    publicKey: wallet,
    createdAt: isoNoZone(new Date()),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  });
  return { apiKeyId: r.apiKey.id, wallet };
}

async function openExecution(
  store: Store,
  apiKeyId: number,
  wallet: string,
  signatures: string[],
  createdAt: string,
): Promise<ExecutionRecord> {
  return store.insertExecution(
    newExecution(apiKeyId, wallet, { signatures, status: "submitted", lastValidBlockHeight: 100, createdAt }),
  );
}

const confirmedStatus: SignatureStatus = {
  slot: 1,
  confirmations: 1,
  err: null,
  confirmationStatus: "confirmed",
};

function suite(name: string, open: () => Promise<[Store, Store]>, cleanup: () => Promise<void>): void {
  describe(`reliability store on ${name}`, () => {
    let a: Store;
    let b: Store;
    beforeAll(async () => {
      [a, b] = await open();
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await cleanup();
    });

    it("one claim per key across two stores, then replay, mismatch and release", async () => {
      const { apiKeyId } = await newKey(a);
      let now = 1_000_000;
      const deps = (store: Store) => ({ store, nowMs: () => now });
      const starts = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          beginIdempotent(deps(i % 2 ? a : b), apiKeyId, apiKeyId, "k", "fp"),
        ),
      );
      const runs = starts.filter((s) => s.status === "fulfilled");
      expect(runs).toHaveLength(1);
      const rejected = starts.filter((s): s is PromiseRejectedResult => s.status === "rejected");
      expect(rejected.map((r) => (r.reason as { status: number }).status)).toEqual(Array(9).fill(409));

      const start = (runs[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof beginIdempotent>>>).value;
      if (start.kind !== "run") throw new Error("expected a claim");
      const response = { status: 200, contentType: "application/json", body: '{"ok":true}' };
      expect(await b.completeIdempotencyKey(start.claim.id, "someone-else", response)).toBe(false);
      expect(await a.completeIdempotencyKey(start.claim.id, start.claim.owner, response)).toBe(true);
      expect(await beginIdempotent(deps(b), apiKeyId, apiKeyId, "k", "fp")).toEqual({
        kind: "replay",
        response,
      });
      await expect(beginIdempotent(deps(b), apiKeyId, apiKeyId, "k", "other")).rejects.toMatchObject({
        status: 422,
      });

      // Released keys are free again; keys expire after 24 hours.
      const second = await beginIdempotent(deps(a), apiKeyId, apiKeyId, "k2", "fp");
      if (second.kind !== "run") throw new Error("expected a claim");
      await a.releaseIdempotencyKey(second.claim.id, second.claim.owner);
      expect((await beginIdempotent(deps(b), apiKeyId, apiKeyId, "k2", "fp2")).kind).toBe("run");
      now += IDEMPOTENCY_TTL_MS;
      expect((await beginIdempotent(deps(b), apiKeyId, apiKeyId, "k", "different")).kind).toBe("run");
      expect(await a.purgeIdempotencyKeys(now + 1)).toBeGreaterThanOrEqual(2);
      expect(await a.findIdempotencyKey(apiKeyId, apiKeyId, "k")).toBeUndefined();
    });

    it("issue 29: records are per key: another key's same Idempotency-Key is another record", async () => {
      const { apiKeyId } = await newKey(a);
      const subKeyId = apiKeyId + 1_000_000; // key_id names the sending key; no foreign key on it
      const deps = { store: a, nowMs: () => 7_000_000 };
      const first = await beginIdempotent(deps, apiKeyId, apiKeyId, "shared", "fp-root");
      if (first.kind !== "run") throw new Error("expected a claim");
      const response = { status: 200, contentType: "application/json", body: '{"root":true}' };
      expect(await a.completeIdempotencyKey(first.claim.id, first.claim.owner, response)).toBe(true);
      // The sub-key neither gets the root's answer nor a 422 telling it the value was used: it runs.
      const other = await beginIdempotent(
        { store: b, nowMs: () => 7_000_000 },
        apiKeyId,
        subKeyId,
        "shared",
        "fp-sub",
      );
      expect(other.kind).toBe("run");
      expect((await b.findIdempotencyKey(apiKeyId, subKeyId, "shared"))?.fingerprint).toBe("fp-sub");
      expect((await b.findIdempotencyKey(apiKeyId, apiKeyId, "shared"))?.response).toEqual(response);
      expect(await beginIdempotent(deps, apiKeyId, apiKeyId, "shared", "fp-root")).toEqual({
        kind: "replay",
        response,
      });
    });

    it("a lapsed claim is taken over by exactly one store; the old holder can no longer extend it", async () => {
      const { apiKeyId } = await newKey(a);
      let now = 5_000_000;
      const first = await beginIdempotent({ store: a, nowMs: () => now }, apiKeyId, apiKeyId, "lapse", "fp");
      if (first.kind !== "run") throw new Error("expected a claim");
      now += IDEMPOTENCY_LEASE_MS + 1;
      const takeovers = await Promise.allSettled([
        beginIdempotent({ store: a, nowMs: () => now }, apiKeyId, apiKeyId, "lapse", "fp"),
        beginIdempotent({ store: b, nowMs: () => now }, apiKeyId, apiKeyId, "lapse", "fp"),
      ]);
      expect(takeovers.filter((t) => t.status === "fulfilled")).toHaveLength(1);
      const held = { owner: first.claim.owner, lockedUntilMs: first.claim.lockedUntilMs };
      expect(
        await a.leaseIdempotencyKey(first.claim.id, held, { owner: held.owner, lockedUntilMs: now + 1 }),
      ).toBe(false);
    });

    it("two reconcilers lease disjoint records and settle each one once", async () => {
      const { apiKeyId, wallet } = await newKey(a);
      const old = isoNoZone(new Date(Date.now() - 3_600_000));
      const records = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          openExecution(a, apiKeyId, wallet, [`sig-${name}-${i}-${randomUUID()}`], old),
        ),
      );
      // A recent record belongs to its running request and is left alone.
      const fresh = await openExecution(
        a,
        apiKeyId,
        wallet,
        [`fresh-${randomUUID()}`],
        isoNoZone(new Date()),
      );
      const asked: string[] = [];
      const rpc = {
        getBlockHeight: async () => 50,
        getSignatureStatuses: async (sigs: string[]) => {
          asked.push(...sigs);
          return { slot: 1, value: sigs.map(() => confirmedStatus) };
        },
        getTransactionLogs: async () => null,
      };
      const pass = (store: Store, owner: string) =>
        reconcileOnce({ store, rpc, owner, clock: () => new Date(), graceMs: 60_000, leaseMs: 60_000 });
      const [ra, rb] = await Promise.all([pass(a, "proc-a"), pass(b, "proc-b")]);
      const mine = new Set(records.flatMap((r) => r.signatures));
      const askedMine = asked.filter((s) => mine.has(s));
      expect(new Set(askedMine).size).toBe(30);
      expect(askedMine).toHaveLength(30);
      expect((ra.settled.confirmed ?? 0) + (rb.settled.confirmed ?? 0)).toBe(30);
      const rows = await a.listExecutions({ apiKeyId, limit: 100 });
      expect(rows.filter((r) => r.status === "confirmed")).toHaveLength(30);
      expect(rows.find((r) => r.id === fresh.id)?.status).toBe("submitted");
      // A settled record is final: a late settle by anyone changes nothing.
      expect(await a.settleExecution(records[0]!.id, "proc-a", { status: "failed" })).toBe(false);
    });
  });
}

const sqliteDir = mkdtempSync(join(tmpdir(), "lasertrade-reliability-"));
const sqliteFile = join(sqliteDir, "store.sqlite");
suite(
  "sqlite",
  async () => [
    await openStore(`sqlite:${sqliteFile}`, sqliteDir),
    await openStore(`sqlite:${sqliteFile}`, sqliteDir),
  ],
  async () => rmSync(sqliteDir, { recursive: true, force: true }),
);

const pgUrl = TEST_DATABASE_URL;
if (pgUrl !== undefined) {
  const schema = freshSchemaName("rel");
  suite(
    "postgres",
    async () => {
      const first = await openStore(pgUrl, "./data", { pgSchema: schema });
      return [first, await openStore(pgUrl, "./data", { pgSchema: schema })];
    },
    () => dropSchema(pgUrl, schema),
  );
} else {
  describe.skip("reliability store on postgres (TEST_DATABASE_URL not set)", () => {
    it("skipped", () => {});
  });
}
