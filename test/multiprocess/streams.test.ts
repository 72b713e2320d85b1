/**
 * Issue 29, finding 3 across processes: streams held by one service process end when another process revokes
 * their key or freezes the account, through the key-change hint on the processes' wake-up channel (PostgreSQL
 * NOTIFY; Redis pub/sub when TEST_REDIS_URL is set, as for the event wake-ups).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { openSse, type SseReader } from "../events/sse-reader.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";

let cluster: Cluster;
const url = (i: number) => cluster.services[i]!.baseUrl;

/** An open stream WebSocket on service `i`; `closed` resolves with the server's close code and reason. */
async function streamOn(
  i: number,
  apiKey: string,
): Promise<{ closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`${url(i).replace("http", "ws")}/v1/stream`, { headers: { "x-api-key": apiKey } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return { closed };
}

async function sseOn(i: number, apiKey: string): Promise<SseReader> {
  const r = await openSse(`${url(i)}/v1/events`, { "x-api-key": apiKey });
  expect(r.status).toBe(200);
  await r.waitForComment((c) => c.includes("connected"));
  return r;
}

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "several processes on one PostgreSQL: streams re-authorize",
  () => {
    beforeAll(async () => {
      cluster = await startCluster({
        processes: 2,
        database: "postgres",
        slotMs: 100,
        ...(TEST_REDIS_URL !== undefined ? { redisUrl: TEST_REDIS_URL } : {}),
      });
    });
    afterAll(async () => {
      await cluster?.close();
    });

    it("a revoke on process 0 closes the key's WebSocket and SSE stream on process 1; an account freeze the root's", async () => {
      const { apiKey: root, wallet } = await cluster.setupKey({ sol: 1n });
      const before = await cluster.localnet.balance(wallet);
      const created = await apiRequest<{ id: number; api_key: string }>(url(0), "POST", "/v1/keys", {
        apiKey: root,
        body: { name: "reader", scopes: ["read"] },
      });
      expect(created.status, created.text).toBe(201);
      const sub = created.body;
      const ws = await streamOn(1, sub.api_key);
      const events = await sseOn(1, sub.api_key);
      const rootWs = await streamOn(1, root);

      expect((await apiRequest(url(0), "DELETE", `/v1/keys/${sub.id}`, { apiKey: root })).status).toBe(200);
      expect(await ws.closed).toEqual({ code: 4401, reason: "API key revoked" });
      const [closing] = await events.waitForMessages(1, 15_000);
      expect(closing!.event).toBe("closed");
      expect(JSON.parse(closing!.data)).toEqual({ code: 4401, reason: "API key revoked" });
      events.close();

      expect((await apiRequest(url(0), "POST", "/v1/account/freeze", { apiKey: root })).status).toBe(200);
      expect((await rootWs.closed).code).toBe(4403);
      expect((await apiRequest(url(0), "POST", "/v1/account/unfreeze", { apiKey: root })).status).toBe(200);
      expect(await cluster.localnet.balance(wallet)).toBe(before);
    });
  },
);
