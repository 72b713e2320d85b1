/**
 * PostgreSQL group commit of the request path's writes (issue 18): concurrent pending inserts, outcome updates
 * and activity rows of one key share one transaction (their rows carry one `xmin`), each caller answered with
 * its own row after the commit; a failing write fails only its own caller; the events stay numbered densely
 * per key and in each execution's order, with two stores (processes) writing one key at once.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Keypair } from "@solana/web3.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { NewActivity } from "../../src/store/keys/custody-types.js";
import { newExecution, newWalletRecord } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const url = TEST_DATABASE_URL;
const schema = freshSchemaName("pggroup");

describe.skipIf(url === undefined)("group commit on PostgreSQL", () => {
  let one: Store;
  let two: Store;
  let other: pg.Client;
  beforeAll(async () => {
    one = await openStore(url!, "./data", { pgSchema: schema });
    two = await openStore(url!, "./data", { pgSchema: schema });
    other = new pg.Client({ connectionString: url!, options: `-c search_path=${schema}` });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await one?.close();
    await two?.close();
    await dropSchema(url!, schema);
  });

  async function newKey(): Promise<{ keyId: number; wallet: string }> {
    const wallet = Keypair.generate().publicKey.toBase58();
    const { apiKey } = await one.createApiKeyWithWallet(`h-${randomUUID()}`, newWalletRecord(wallet));
    return { keyId: apiKey.id, wallet };
  }

  /** The transactions (xmin) the rows of `ids` were last written by, as seen from another session. */
  async function transactionsOf(table: string, column: string, ids: string[]): Promise<number> {
    const { rows } = await other.query<{ n: string }>(
      `select count(distinct xmin::text) as n from ${table} where ${column} = any($1)`,
      [ids],
    );
    return Number(rows[0]!.n);
  }

  it("commits one turn's inserts and updates of a key together; each caller gets its own row", async () => {
    const a = await newKey();
    const es = Array.from({ length: 8 }, (_, i) => newExecution(a.keyId, a.wallet, { request: { i } }));
    const executionTransactions = () =>
      transactionsOf(
        "executions",
        "id",
        es.map((e) => e.id),
      );
    const inserted = await Promise.all(es.map((e) => one.insertExecution(e)));
    expect(inserted.map((r) => [r.id, r.request])).toEqual(es.map((e) => [e.id, e.request]));
    // Answered after the commit: another session sees every row, all written by one transaction.
    expect(await executionTransactions()).toBe(1);

    const updated = await Promise.all(
      es.map((e, i) => one.updateExecution(e.id, { status: "submitted", signatures: [`S${i}`] })),
    );
    expect(updated.map((r) => [r?.id, r?.status, r?.signatures])).toEqual(
      es.map((e, i) => [e.id, "submitted", [`S${i}`]]),
    );
    expect(await executionTransactions()).toBe(1);
    // Columns a patch does not name are kept.
    expect(updated.every((r) => r?.confirmationStatus === null && r.wallets[0] === a.wallet)).toBe(true);

    const events = await one.listEvents({ apiKeyId: a.keyId, after: 0, limit: 100 });
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    // Pending events in the order the inserts were called, every outcome after its own pending event.
    expect(events.slice(0, 8).map((e) => e.executionId)).toEqual(es.map((e) => e.id));
    for (const e of es) {
      const [p, s] = events.filter((x) => x.executionId === e.id);
      expect([p?.type, s?.type]).toEqual(["execution.pending", "execution.submitted"]);
    }
  });

  it("a failing write of a batch fails alone; the others are written", async () => {
    const a = await newKey();
    const existing = await one.insertExecution(newExecution(a.keyId, a.wallet));
    const fresh = [newExecution(a.keyId, a.wallet), newExecution(a.keyId, a.wallet)];
    const out = await Promise.allSettled([
      one.insertExecution(fresh[0]!),
      one.insertExecution({ ...newExecution(a.keyId, a.wallet), id: existing.id }), // primary key taken
      one.insertExecution(fresh[1]!),
    ]);
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const ids = (await one.listExecutions({ apiKeyId: a.keyId, limit: 10 })).map((e) => e.id).sort();
    expect(ids).toEqual([existing.id, ...fresh.map((e) => e.id)].sort());
    // An update of a missing record answers undefined without failing its batch; one execution twice in a turn
    // takes both patches, in order.
    const ups = await Promise.all([
      one.updateExecution(fresh[0]!.id, { status: "submitted" }),
      one.updateExecution("missing-id", { status: "failed" }),
      one.updateExecution(fresh[1]!.id, { status: "submitted" }),
      one.updateExecution(fresh[1]!.id, { status: "failed", error: { x: 1 } }),
    ]);
    expect(ups.map((r) => r?.status)).toEqual(["submitted", undefined, "submitted", "failed"]);
    const events = await one.listEvents({ apiKeyId: a.keyId, after: 0, limit: 100 });
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.filter((e) => e.executionId === fresh[1]!.id).map((e) => e.type)).toEqual([
      "execution.pending",
      "execution.submitted",
      "execution.failed",
    ]);
  });

  it("commits concurrent activity rows together; a failing row fails alone", async () => {
    const a = await newKey();
    const row = (executionId: string): NewActivity => ({
      accountId: a.keyId,
      at: "2026-01-01T00:00:00.000",
      keyId: a.keyId,
      keyName: "root",
      method: "POST",
      route: "/v1/trade",
      wallets: [a.wallet],
      executionId,
      status: 200,
      rule: null,
      ip: null,
    });
    const ids = Array.from({ length: 5 }, () => randomUUID());
    await Promise.all(ids.map((id) => one.insertActivity(row(id))));
    expect(await transactionsOf("activity_log", "execution_id", ids)).toBe(1);
    const more = [randomUUID(), randomUUID()];
    const out = await Promise.allSettled([
      one.insertActivity(row(more[0]!)),
      one.insertActivity({ ...row("bad"), status: null as unknown as number }), // not null
      one.insertActivity(row(more[1]!)),
    ]);
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const listed = await one.listActivity({ accountId: a.keyId, limit: 10 });
    expect(listed.map((r) => r.executionId).sort()).toEqual([...ids, ...more].sort());
  });

  it("two stores writing one key at once: dense event ids, each execution's events in order", async () => {
    const a = await newKey();
    const es = Array.from({ length: 40 }, () => newExecution(a.keyId, a.wallet));
    await Promise.all(
      es.map(async (e, i) => {
        const s = i % 2 === 0 ? one : two;
        await s.insertExecution(e);
        await s.updateExecution(e.id, { status: "submitted" });
        await s.updateExecution(e.id, { status: i % 3 === 0 ? "failed" : "confirmed" });
      }),
    );
    const events = await one.listEvents({ apiKeyId: a.keyId, after: 0, limit: 1000 });
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    for (const [i, e] of es.entries()) {
      expect(events.filter((x) => x.executionId === e.id).map((x) => x.status)).toEqual([
        "pending",
        "submitted",
        i % 3 === 0 ? "failed" : "confirmed",
      ]);
    }
  });
});
