/** The events outbox on SQLite and PostgreSQL: one event per status taken, in the write's transaction, per-account ids. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

let n = 0;
async function newKey(store: Store): Promise<{ keyId: number; wallet: string }> {
  n += 1;
  const wallet = `Wa11et${String(n).padStart(10, "1")}${Math.random().toString(36).slice(2, 8)}`;
  const r = await store.createApiKeyWithWallet(`hash-ev-${n}-${Math.random()}`, {
    publicKey: wallet,
    createdAt: "2026-01-01T00:00:00.000",
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  });
  return { keyId: r.apiKey.id, wallet };
}

function outboxSuite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`events outbox on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup();
    });

    it("writes one event per status an execution takes, numbered per account from 1", async () => {
      const a = await newKey(store);
      const b = await newKey(store);
      const e1 = await store.insertExecution(newExecution(a.keyId, a.wallet));
      await store.updateExecution(e1.id, { status: "submitted" });
      // A write that does not change the status is not an event.
      await store.updateExecution(e1.id, { status: "submitted", signatures: ["S", "T"] });
      await store.updateExecution(e1.id, { timings: { x: 1 } });
      await store.updateExecution(e1.id, {
        status: "failed",
        error: { status: 502, detail: "boom" },
      });
      await store.insertExecution(newExecution(b.keyId, b.wallet, { kind: "bundle" }));
      const events = await store.listEvents({ apiKeyId: a.keyId, after: 0, limit: 100 });
      expect(events.map((e) => [e.id, e.type, e.status])).toEqual([
        [1, "execution.pending", "pending"],
        [2, "execution.submitted", "submitted"],
        [3, "execution.failed", "failed"],
      ]);
      expect(events[2]).toMatchObject({
        executionId: e1.id,
        kind: "trade",
        wallet: a.wallet,
        wallets: [a.wallet],
        signatures: ["S", "T"],
        error: { status: 502, detail: "boom" },
      });
      const other = await store.listEvents({ apiKeyId: b.keyId, after: 0, limit: 100 });
      expect(other.map((e) => [e.id, e.type, e.kind])).toEqual([[1, "execution.pending", "bundle"]]);
      expect(await store.eventBounds(a.keyId)).toEqual({ oldest: 1, last: 3 });
      expect(await store.eventBounds(999_999)).toEqual({ oldest: null, last: 0 });
    });

    it("reconciliation's settlement is an event too", async () => {
      const a = await newKey(store);
      const e = await store.insertExecution(newExecution(a.keyId, a.wallet, { status: "submitted" }));
      const claimed = await store.claimOpenExecutions({
        owner: "o1",
        nowMs: Date.now(),
        leaseUntilMs: Date.now() + 60_000,
        updatedNotAfter: "9999-01-01T00:00:00.000",
        limit: 1000,
      });
      expect(claimed.some((c) => c.id === e.id)).toBe(true);
      // Claiming (the lease columns) is not a state change.
      expect((await store.listEvents({ apiKeyId: a.keyId, after: 0, limit: 10 })).length).toBe(1);
      expect(
        await store.settleExecution(e.id, "o1", { status: "confirmed", confirmationStatus: "confirmed" }),
      ).toBe(true);
      const events = await store.listEvents({ apiKeyId: a.keyId, after: 0, limit: 10 });
      expect(events.map((x) => x.type)).toEqual(["execution.submitted", "execution.confirmed"]);
    });

    it("filters by types, kind, wallet and execution; pages by cursor", async () => {
      const a = await newKey(store);
      const x = await store.insertExecution(newExecution(a.keyId, a.wallet, { kind: "trade" }));
      const y = await store.insertExecution(
        newExecution(a.keyId, a.wallet, { kind: "split", wallets: [a.wallet, "OtherWa11et"] }),
      );
      await store.updateExecution(x.id, { status: "confirmed" });
      await store.updateExecution(y.id, { status: "expired" });
      const q = { apiKeyId: a.keyId, after: 0, limit: 100 };
      expect(
        (await store.listEvents({ ...q, types: ["execution.confirmed", "execution.expired"] })).map(
          (e) => e.id,
        ),
      ).toEqual([3, 4]);
      expect((await store.listEvents({ ...q, kind: "split" })).map((e) => e.id)).toEqual([2, 4]);
      expect((await store.listEvents({ ...q, wallet: "OtherWa11et" })).map((e) => e.id)).toEqual([2, 4]);
      expect((await store.listEvents({ ...q, executionId: x.id })).map((e) => e.id)).toEqual([1, 3]);
      expect((await store.listEvents({ ...q, after: 2, limit: 1 })).map((e) => e.id)).toEqual([3]);
    });

    it("purges events older than the cutoff; ids keep counting after a purge", async () => {
      const a = await newKey(store);
      const old = await store.insertExecution(
        newExecution(a.keyId, a.wallet, { createdAt: "2026-01-01T00:00:00.000" }),
      );
      expect(old.createdAt).toBe("2026-01-01T00:00:00.000");
      const purged = await store.purgeEvents("2026-01-02T00:00:00.000");
      expect(purged).toBeGreaterThanOrEqual(1);
      expect(await store.eventBounds(a.keyId)).toEqual({ oldest: null, last: 1 });
      await store.updateExecution(old.id, { status: "confirmed" });
      expect(await store.eventBounds(a.keyId)).toEqual({ oldest: 2, last: 2 });
    });

    it("wakes subscribers of this process on every status write", async () => {
      const a = await newKey(store);
      const woken: (number | undefined)[] = [];
      const off = store.onEventWake((k) => woken.push(k));
      const e = await store.insertExecution(newExecution(a.keyId, a.wallet));
      await store.updateExecution(e.id, { status: "confirmed" });
      off();
      await store.insertExecution(newExecution(a.keyId, a.wallet));
      expect(woken.filter((k) => k === a.keyId).length).toBeGreaterThanOrEqual(2);
    });

    it("finds one execution of the key only", async () => {
      const a = await newKey(store);
      const b = await newKey(store);
      const e = await store.insertExecution(newExecution(a.keyId, a.wallet));
      expect((await store.findExecution(a.keyId, e.id))?.id).toBe(e.id);
      expect(await store.findExecution(b.keyId, e.id)).toBeUndefined();
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "events-outbox-"));
outboxSuite(
  "sqlite",
  () => openStore(`sqlite:${join(dir, "db.sqlite")}`, dir),
  async () => rmSync(dir, { recursive: true, force: true }),
);

if (TEST_DATABASE_URL !== undefined) {
  const url = TEST_DATABASE_URL;
  const schema = freshSchemaName("events");
  outboxSuite(
    "postgres",
    () => openStore(url, "./data", { pgSchema: schema }),
    () => dropSchema(url, schema),
  );

  describe("events across two PostgreSQL stores", () => {
    const schema2 = freshSchemaName("events2");
    let one: Store;
    let two: Store;
    beforeAll(async () => {
      one = await openStore(url, "./data", { pgSchema: schema2 });
      two = await openStore(url, "./data", { pgSchema: schema2 });
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
      await dropSchema(url, schema2);
    });

    it("a write in one store wakes a subscriber of the other through NOTIFY", async () => {
      const a = await newKey(one);
      const woken = new Promise<number | undefined>((resolve) => {
        const off = two.onEventWake((k) => {
          if (k === a.keyId) {
            off();
            resolve(k);
          }
        });
      });
      // LISTEN starts on the first subscription; write until it is heard (it is a wake-up, not the data).
      let heard: number | undefined;
      void woken.then((k) => (heard = k));
      for (let i = 0; i < 100 && heard === undefined; i++) {
        await one.insertExecution(newExecution(a.keyId, a.wallet));
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(heard).toBe(a.keyId);
      expect((await two.listEvents({ apiKeyId: a.keyId, after: 0, limit: 1000 })).length).toBeGreaterThan(0);
    });

    it("concurrent writers of one account get dense ids with no gaps or duplicates", async () => {
      const a = await newKey(one);
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? one : two).insertExecution(newExecution(a.keyId, a.wallet)),
        ),
      );
      const ids = (await one.listEvents({ apiKeyId: a.keyId, after: 0, limit: 1000 })).map((e) => e.id);
      expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });
}
