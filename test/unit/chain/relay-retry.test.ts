/**
 * Issue 22 item 6: a relay send whose connection dies before any HTTP answer is sent once more, on a fresh
 * connection, with the same bytes; an HTTP answer (even a 500) is never repeated. Against a local fake relay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createBundleRelayClient } from "../../../src/chain/bundle-relay-client.js";
import {
  createHttpFetch,
  DEFAULT_IDLE_SOCKET_TIMEOUT_MS,
  isUnansweredConnectionError,
} from "../../../src/chain/http-fetch.js";
import { createRelayClient } from "../../../src/chain/relay-client.js";
import { HttpError } from "../../../src/chain/upstream-errors.js";

/** What the fake relay saw: one entry per request, with the connection it came on. */
interface Seen {
  connection: number;
  body: string;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/**
 * A relay whose `behaviour(n)` decides the n-th request (0-based): "drop" destroys the connection without
 * answering, "500" answers an HTTP 500, "ok" answers the JSON-RPC result `SIG`.
 */
async function fakeRelay(behaviour: (n: number) => "drop" | "500" | "ok") {
  const seen: Seen[] = [];
  let connections = 0;
  const ids = new WeakMap<Socket, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const n = seen.length;
      seen.push({ connection: ids.get(req.socket) ?? -1, body });
      const b = behaviour(n);
      if (b === "drop") return void req.socket.destroy();
      if (b === "500") {
        res.statusCode = 500;
        return void res.end("internal error");
      }
      const { id } = JSON.parse(body) as { id: number };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "SIG" }));
    });
  });
  server.on("connection", (s: Socket) => ids.set(s, connections++));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const WIRE = new Uint8Array([1, 2, 3, 4]);

describe("relay send over a connection that dies unanswered (issue 22)", () => {
  it("is sent once more on a fresh connection with the same bytes, and succeeds", async () => {
    const relay = await fakeRelay((n) => (n === 0 ? "drop" : "ok"));
    const client = createRelayClient({ url: relay.url, timeoutMs: 5_000 });
    expect(await client.sendTransaction(WIRE)).toBe("SIG");
    expect(relay.seen).toHaveLength(2);
    expect(relay.seen[1]!.connection).not.toBe(relay.seen[0]!.connection);
    expect(relay.seen[1]!.body).toBe(relay.seen[0]!.body);
  });

  it("dies on a pooled keep-alive socket after a good send, and the next send still succeeds", async () => {
    const relay = await fakeRelay((n) => (n === 1 ? "drop" : "ok"));
    const client = createRelayClient({ url: relay.url, timeoutMs: 5_000 });
    expect(await client.sendTransaction(WIRE)).toBe("SIG");
    expect(await client.sendTransaction(WIRE)).toBe("SIG");
    expect(relay.seen.map((s) => s.connection)).toEqual([0, 0, 1]);
  });

  it("is sent at most twice: a second unanswered connection fails the send", async () => {
    const relay = await fakeRelay(() => "drop");
    const client = createRelayClient({ url: relay.url, timeoutMs: 5_000 });
    await expect(client.sendTransaction(WIRE)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(relay.seen).toHaveLength(2);
  });

  it("is never repeated after an HTTP answer, even a 500", async () => {
    const relay = await fakeRelay(() => "500");
    const client = createRelayClient({ url: relay.url, timeoutMs: 5_000 });
    const e = await client.sendTransaction(WIRE).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).status).toBe(500);
    expect(relay.seen).toHaveLength(1);
  });

  it("applies to the bundle relay's send too", async () => {
    const relay = await fakeRelay((n) => (n === 0 ? "drop" : "ok"));
    // The fake answers "SIG" to everything; the bundle client expects a 64-hex id, so read the transport.
    const client = createBundleRelayClient({ url: relay.url, timeoutMs: 5_000 });
    await client.sendBundle([WIRE]).catch(() => undefined);
    expect(relay.seen).toHaveLength(2);
    expect(relay.seen[1]!.body).toBe(relay.seen[0]!.body);
  });

  it("is not repeated by a plain (non-relay) client", async () => {
    const relay = await fakeRelay((n) => (n === 0 ? "drop" : "ok"));
    const f = createHttpFetch();
    const init = { method: "POST", headers: {}, body: "{}", signal: AbortSignal.timeout(5_000) };
    await expect(f(relay.url, init)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(relay.seen).toHaveLength(1);
  });
});

describe("isUnansweredConnectionError", () => {
  it("knows ECONNRESET, EPIPE and socket hang up, nothing else", () => {
    expect(isUnansweredConnectionError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(true);
    expect(isUnansweredConnectionError(Object.assign(new Error("x"), { code: "EPIPE" }))).toBe(true);
    expect(isUnansweredConnectionError(new Error("socket hang up"))).toBe(true);
    expect(isUnansweredConnectionError(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(false);
    expect(isUnansweredConnectionError(new Error("timeout"))).toBe(false);
    expect(isUnansweredConnectionError(null)).toBe(false);
  });

  it("keeps pooled sockets idle for less than a 5 s server keep-alive", () => {
    expect(DEFAULT_IDLE_SOCKET_TIMEOUT_MS).toBeLessThan(5_000);
  });
});
