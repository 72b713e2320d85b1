/**
 * Orders fire exactly once across two service processes on one PostgreSQL: 30 take-profits placed through
 * either process are held by both engines (each loads what the other created), one buy crosses every level,
 * and each attempt is claimed by one process only — every send the relay received is distinct, one per
 * recorded execution, and each order has one order.filled (or order.failed) event. On the same cluster (one
 * start saved), copy orders: 6 placed through either process, one buy of the leader seen by both, each order
 * claims it once — every send is distinct, one per order, one order.triggered event each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const ORDERS = 30;
const COPIES = 6;

interface Order {
  id: string;
  state: string;
  attempts: number;
  execution_ids: string[];
}

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "orders and copy orders across two processes on one PostgreSQL",
  () => {
    let cluster: Cluster;
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        slotMs: 100,
        serviceEnv: { ORDERS_SYNC_MS: "100" },
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });

    const url = (i: number) => cluster.services[i % 2]!.baseUrl;

    it(`${ORDERS} take-profits crossed at once: every attempt claimed and sent once`, async () => {
      const holder = await cluster.setupKey({ sol: 20n });
      const mover = await cluster.setupKey({ sol: 200n });
      const { mint } = await cluster.localnet.createToken();
      const buy = await apiRequest(url(0), "POST", "/v1/trades/execute", {
        apiKey: holder.apiKey,
        body: { action: "buy", mint, amount: "1", simulate: false, confirm: true },
      });
      expect(buy.status, buy.text).toBe(200);
      const ids: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const r = await apiRequest<Order>(url(i), "POST", "/v1/orders", {
          apiKey: holder.apiKey,
          body: { kind: "take_profit", mint, percent: 5, amount: "1%", slippage: 50 },
        });
        expect(r.status, r.text).toBe(200);
        ids.push(r.body.id);
      }
      // Both engines hold every order (their polls of the store run every 100 ms): wait for a few polls.
      await new Promise((r) => setTimeout(r, 1_000));
      await cluster.localnet.resetRelaySignatures();
      const move = await apiRequest(url(1), "POST", "/v1/trades/execute", {
        apiKey: mover.apiKey,
        body: { action: "buy", mint, amount: "20", simulate: false, confirm: true },
      });
      expect(move.status, move.text).toBe(200);
      const done = new Map<string, Order>();
      for (let round = 0; round < 300 && done.size < ORDERS; round++) {
        for (const id of ids) {
          if (done.has(id)) continue;
          const r = await apiRequest<Order>(url(round), "GET", `/v1/orders/${id}`, { apiKey: holder.apiKey });
          if (r.body.state !== "open" && r.body.state !== "triggered") done.set(id, r.body);
        }
        if (done.size < ORDERS) await new Promise((r) => setTimeout(r, 100));
      }
      expect(done.size).toBe(ORDERS);
      let executions = 0;
      for (const o of done.values()) {
        expect(o.execution_ids).toHaveLength(o.attempts);
        executions += o.attempts;
      }
      const sent = (await cluster.localnet.relaySignatures()).map((s) => s.signature);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent).toHaveLength(1 + executions);
      const events = await apiRequest<{ events: { type: string; execution_id: string }[] }>(
        url(0),
        "GET",
        "/v1/events?after=0&limit=1000&types=order.filled,order.failed",
        { apiKey: holder.apiKey, headers: { accept: "application/json" } },
      );
      const settledEvents = events.body.events.map((e) => e.execution_id);
      expect(settledEvents.sort()).toEqual([...ids].sort());
      const filled = [...done.values()].filter((o) => o.state === "filled").length;
      console.log(
        `orders-claim: ${filled}/${ORDERS} filled, ${executions} sends for ${ORDERS} orders, 0 duplicated`,
      );
    }, 300_000);

    it(`${COPIES} copy orders, one followed buy seen by both processes: each copied once`, async () => {
      const copier = await cluster.setupKey({ sol: 20n });
      const leader = await cluster.setupKey({ sol: 20n });
      const { mint } = await cluster.localnet.createToken();
      const ids: string[] = [];
      for (let i = 0; i < COPIES; i++) {
        const r = await apiRequest<Order>(url(i), "POST", "/v1/orders", {
          apiKey: copier.apiKey,
          body: { kind: "copy", follow: [leader.wallet], amount: "0.02", buys_only: true, slippage: 50 },
        });
        expect(r.status, r.text).toBe(200);
        ids.push(r.body.id);
      }
      // Both engines hold every order (their polls of the store run every 100 ms): wait for a few polls.
      await new Promise((r) => setTimeout(r, 1_000));
      await cluster.localnet.resetRelaySignatures();
      const buy = await apiRequest(url(1), "POST", "/v1/trades/execute", {
        apiKey: leader.apiKey,
        body: { action: "buy", mint, amount: "0.1", simulate: false, confirm: true },
      });
      expect(buy.status, buy.text).toBe(200);
      const done = new Map<string, Order>();
      for (let round = 0; round < 300 && done.size < COPIES; round++) {
        for (const id of ids) {
          if (done.has(id)) continue;
          const r = await apiRequest<Order>(url(round), "GET", `/v1/orders/${id}`, { apiKey: copier.apiKey });
          if (r.body.execution_ids.length > 0) done.set(id, r.body);
        }
        if (done.size < COPIES) await new Promise((r) => setTimeout(r, 100));
      }
      expect(done.size).toBe(COPIES);
      // Leave the other process time to (wrongly) copy it again.
      await new Promise((r) => setTimeout(r, 1_000));
      for (const id of ids) {
        const r = await apiRequest<Order>(url(0), "GET", `/v1/orders/${id}`, { apiKey: copier.apiKey });
        expect(r.body).toMatchObject({ state: "open" });
        expect(r.body.execution_ids).toHaveLength(1);
      }
      const sent = (await cluster.localnet.relaySignatures()).map((s) => s.signature);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent).toHaveLength(1 + COPIES);
      const events = await apiRequest<{ events: { type: string; execution_id: string }[] }>(
        url(0),
        "GET",
        "/v1/events?after=0&limit=1000&types=order.triggered",
        { apiKey: copier.apiKey, headers: { accept: "application/json" } },
      );
      expect(events.body.events.map((e) => e.execution_id).sort()).toEqual([...ids].sort());
    }, 300_000);
  },
);
