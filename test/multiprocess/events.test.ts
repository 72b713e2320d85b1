/**
 * Execution events across two real service processes on one PostgreSQL: trades executed through both, and
 * confirm:false trades settled by either process's reconciliation, reach event streams held on both processes,
 * each id once and in order; a stream resumed on the other process with Last-Event-ID gets exactly what it
 * missed; ?wait= on one process returns when the other process's reconciliation settles the execution.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { openSse, type SseReader } from "../events/sse-reader.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";

interface EventView {
  id: number;
  type: string;
  execution_id: string;
  status: string;
}

const FINAL = new Set(["confirmed", "finalized", "failed", "expired"]);

let cluster: Cluster;
const url = (i: number) => cluster.services[i]!.baseUrl;

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "several processes on one PostgreSQL: execution events",
  () => {
    const readers: SseReader[] = [];
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        slotMs: 100,
        ...(TEST_REDIS_URL !== undefined ? { redisUrl: TEST_REDIS_URL } : {}),
        serviceEnv: { CONFIRM_TIMEOUT_MS: "20000", RECONCILE_INTERVAL_MS: "300", RECONCILE_GRACE_MS: "500" },
      });
    });
    afterAll(async () => {
      readers.forEach((r) => r.close());
      await cluster?.close();
    });

    it("every event reaches streams on both processes once, in order; resume on the other process; ?wait= across processes", async () => {
      const { apiKey } = await cluster.setupKey();
      const { mint } = await cluster.localnet.createToken();
      const streams = [
        await openSse(`${url(0)}/v1/events`, { "x-api-key": apiKey }),
        await openSse(`${url(1)}/v1/events`, { "x-api-key": apiKey }),
      ];
      readers.push(...streams);
      await Promise.all(streams.map((s) => s.waitForComment((c) => c.includes("connected"))));

      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await apiRequest<{ execution_id?: string; id?: string }>(
          url(i % 2),
          "POST",
          "/v1/trades/execute",
          {
            apiKey,
            body: { action: "buy", mint, amount: "0.001", simulate: false, confirm: i % 4 !== 3 },
          },
        );
        expect(res.status, res.text).toBe(200);
      }
      // Every execution of the key, from the history: wait (via the other process) until each one is final.
      const history = await apiRequest<{ executions: { id: string; status: string }[] }>(
        url(1),
        "GET",
        "/v1/executions?limit=100",
        { apiKey },
      );
      for (const e of history.body.executions) ids.push(e.id);
      expect(ids.length).toBe(8);
      for (const [i, id] of ids.entries()) {
        const r = await apiRequest<{ status: string }>(
          url((i + 1) % 2),
          "GET",
          `/v1/executions/${id}?wait=30`,
          {
            apiKey,
          },
        );
        expect(r.status).toBe(200);
        expect(FINAL.has(r.body.status), `${id} ${r.body.status}`).toBe(true);
      }

      // The outbox, read as pages, is the reference.
      const page = await apiRequest<{ events: EventView[] }>(url(0), "GET", "/v1/events?limit=1000", {
        apiKey,
        headers: { accept: "application/json" },
      });
      const all = page.body.events;
      expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
      for (const id of ids) {
        // A confirmed trade's fill also writes position.updated under its id: the statuses are the execution.* ones.
        const mine = all.filter((e) => e.execution_id === id && e.type.startsWith("execution."));
        expect(mine[0]!.type).toBe("execution.pending");
        expect(FINAL.has(mine[mine.length - 1]!.status)).toBe(true);
      }
      for (const s of streams) {
        const got = await s.waitForMessages(all.length, 30_000);
        expect(got.map((m) => Number(m.id))).toEqual(all.map((e) => e.id));
        expect(got.map((m) => (JSON.parse(m.data) as EventView).type)).toEqual(all.map((e) => e.type));
      }

      // A client that drops off after the 3rd event and comes back on the other process misses nothing.
      streams[0]!.close();
      const resumed = await openSse(`${url(1)}/v1/events`, { "x-api-key": apiKey, "last-event-id": "3" });
      readers.push(resumed);
      const rest = await resumed.waitForMessages(all.length - 3, 30_000);
      expect(rest.map((m) => Number(m.id))).toEqual(all.slice(3).map((e) => e.id));
    });
  },
);
