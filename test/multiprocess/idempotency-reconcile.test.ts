/**
 * Idempotency keys and reconciliation shared by two real service processes on one PostgreSQL: a key in
 * flight on one process answers 409 on the other, a finished one is replayed by either without a second
 * send, and the executions of a process killed with -9 mid-flight are brought to their final state by the
 * survivor's reconciliation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type ApiResponse, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";

interface Execution {
  id: string;
  status: string;
  signatures: string[];
  idempotency_key: string | null;
}

const FINAL = new Set(["confirmed", "finalized", "failed", "expired"]);

let cluster: Cluster;
const url = (i: number) => cluster.services[i]!.baseUrl;

async function history(apiKey: string, via: number): Promise<Execution[]> {
  const res = await apiRequest<{ executions: Execution[] }>(url(via), "GET", "/v1/executions?limit=100", {
    apiKey,
  });
  expect(res.status).toBe(200);
  return res.body.executions;
}

/** Polls until `done` holds or `timeoutMs` passes; returns the last value either way. */
async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "several processes on one PostgreSQL: idempotency and reconciliation",
  () => {
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        slotMs: 100,
        ...(TEST_REDIS_URL !== undefined ? { redisUrl: TEST_REDIS_URL } : {}),
        serviceEnv: {
          CONFIRM_TIMEOUT_MS: "20000",
          RECONCILE_INTERVAL_MS: "300",
          RECONCILE_GRACE_MS: "1000",
        },
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });
    beforeEach(async () => {
      await cluster.localnet.clearFaults();
      await cluster.localnet.resetRelaySignatures();
    });

    it("answers 409 on the other process while a key is in flight, then replays it from either, sending once", async () => {
      const { apiKey } = await cluster.setupKey();
      const { mint } = await cluster.localnet.createToken();
      const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: true };
      const headers = { "idempotency-key": "mp-slow-1" };
      // The first request waits for a confirmation that comes only once the chain is 60 slots on: the slot clock
      // alone takes ~6 s, far longer than the 409 below needs; the test then moves the chain on itself.
      await cluster.localnet.setFaults({ landAfterSlots: 60 });
      const first = apiRequest(url(0), "POST", "/v1/trades/execute", { apiKey, body, headers });
      await waitFor(
        () => cluster.localnet.relaySignatures(),
        (l) => l.length === 1,
        10_000,
      );
      const during = await apiRequest<{ detail: string }>(url(1), "POST", "/v1/trades/execute", {
        apiKey,
        body,
        headers,
      });
      expect(during.status).toBe(409);
      expect(during.body).toEqual({
        detail: "a request with this Idempotency-Key is still in progress",
        code: "idempotency.in_progress",
      });

      // Lands the first request's transaction now (still inside its blockhash's 150 slots).
      await cluster.localnet.advanceSlots(60);
      const done = await first;
      expect(done.status).toBe(200);
      for (const via of [1, 0]) {
        const again = await apiRequest(url(via), "POST", "/v1/trades/execute", { apiKey, body, headers });
        expect(again.status).toBe(done.status);
        expect(again.text).toBe(done.text);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
      }
      const other = await apiRequest<{ detail: string }>(url(1), "POST", "/v1/trades/execute", {
        apiKey,
        body: { ...body, amount: "0.02" },
        headers,
      });
      expect(other.status).toBe(422);
      expect(other.body).toEqual({
        detail: "Idempotency-Key was already used with a different request",
        code: "idempotency.different_request",
      });

      expect(await cluster.localnet.relaySignatures()).toHaveLength(1);
      const keyed = (await history(apiKey, 1)).filter((e) => e.idempotency_key === "mp-slow-1");
      expect(keyed).toHaveLength(1);
    });

    it("sends once when the same key reaches both processes at the same moment", async () => {
      const { apiKey } = await cluster.setupKey();
      const { mint } = await cluster.localnet.createToken();
      const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };
      for (let round = 0; round < 5; round++) {
        const headers = { "idempotency-key": `mp-race-${round}` };
        const answers: ApiResponse[] = await Promise.all(
          [0, 1].map((via) => apiRequest(url(via), "POST", "/v1/trades/execute", { apiKey, body, headers })),
        );
        const statuses = answers.map((a) => a.status).sort();
        // Either the loser saw the winner in flight (409) or already finished (a replay of its 200).
        expect([
          [200, 200],
          [200, 409],
        ]).toContainEqual(statuses);
        const ok = answers.filter((a) => a.status === 200);
        if (ok.length === 2) {
          expect(ok[0]!.text).toBe(ok[1]!.text);
          expect(ok.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(1);
        }
      }
      expect(await cluster.localnet.relaySignatures()).toHaveLength(5);
      const keyed = (await history(apiKey, 0)).filter((e) => e.idempotency_key?.startsWith("mp-race-"));
      expect(keyed).toHaveLength(5);
    });

    it("after kill -9 with trades in flight, the survivor records every relayed signature's final state", async () => {
      const { apiKey } = await cluster.setupKey();
      const { mint } = await cluster.localnet.createToken();
      const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: true };
      const fire = (n: number) =>
        Array.from({ length: n }, () =>
          apiRequest(url(0), "POST", "/v1/trades/execute", { apiKey, body, timeoutMs: 60_000 }).catch(
            (e: unknown) => e,
          ),
        );
      // Five that land only after 30 slots (after the kill), five that never land.
      await cluster.localnet.setFaults({ landAfterSlots: 30 });
      const inFlight = fire(5);
      await waitFor(
        () => cluster.localnet.relaySignatures(),
        (l) => l.length === 5,
        20_000,
      );
      await cluster.localnet.setFaults({ neverLand: true });
      inFlight.push(...fire(5));
      const relayed = await waitFor(
        () => cluster.localnet.relaySignatures(),
        (l) => l.length === 10,
        20_000,
      );
      expect(relayed).toHaveLength(10);
      await cluster.services[0]!.kill();
      // Every request of the dead process ends in a network error, none with an answer.
      for (const r of await Promise.all(inFlight)) expect(r).toBeInstanceOf(Error);
      await cluster.localnet.clearFaults();
      // Past every blockhash's last valid height: the delayed five have landed, the others never can.
      await cluster.localnet.advanceSlots(200);

      const sigs = new Set(relayed.map((e) => e.signature));
      const settled = await waitFor(
        () => history(apiKey, 1),
        (rows) =>
          rows.filter((r) => r.signatures.some((s) => sigs.has(s)) && FINAL.has(r.status)).length === 10,
        30_000,
      );
      const ours = settled.filter((r) => r.signatures.some((s) => sigs.has(s)));
      expect(ours).toHaveLength(10);
      const recorded = new Set(ours.flatMap((r) => r.signatures));
      for (const s of sigs) expect(recorded.has(s)).toBe(true);
      const count = (pred: (s: string) => boolean) => ours.filter((r) => pred(r.status)).length;
      expect(count((s) => s === "confirmed" || s === "finalized")).toBe(5);
      expect(count((s) => s === "expired")).toBe(5);
    });
  },
);
