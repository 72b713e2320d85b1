import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpFetch } from "../../../src/chain/http-fetch.js";
import { createJsonRpcTransport } from "../../../src/chain/json-rpc.js";
import { HttpError, TimeoutError, TransportError } from "../../../src/chain/upstream-errors.js";

let server: Server;
let base = "";
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      if (req.url === "/slow") return void setTimeout(() => res.end("{}"), 500);
      if (req.url === "/down") {
        res.statusCode = 503;
        return void res.end("unavailable");
      }
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ jsonrpc: "2.0", id, result: { method, params, header: req.headers["x-test"] } }),
      );
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("createHttpFetch", () => {
  it("carries JSON-RPC calls over one kept-alive connection, headers included", async () => {
    const t = createJsonRpcTransport({
      url: base,
      timeoutMs: 2_000,
      headers: { "x-test": "yes" },
      fetch: createHttpFetch(),
    });
    const before = connections;
    for (let i = 0; i < 3; i++) {
      expect(await t.call("getSlot", [i, "ü"])).toEqual({
        method: "getSlot",
        params: [i, "ü"],
        header: "yes",
      });
    }
    expect(connections - before).toBe(1);
  });

  it("is the transport's default client", async () => {
    const t = createJsonRpcTransport({ url: base, timeoutMs: 2_000 });
    expect(await t.call("getHealth", [])).toMatchObject({ method: "getHealth" });
  });

  it("reports HTTP errors, timeouts and refused connections as the transport's typed errors", async () => {
    const fetch = createHttpFetch();
    await expect(
      createJsonRpcTransport({ url: base, timeoutMs: 2_000, fetch }).call("m", [], "/down"),
    ).rejects.toThrow(HttpError);
    await expect(
      createJsonRpcTransport({ url: base, timeoutMs: 50, fetch }).call("m", [], "/slow"),
    ).rejects.toThrow(TimeoutError);
    const refused = createJsonRpcTransport({ url: "http://127.0.0.1:1", timeoutMs: 2_000, fetch }).call(
      "m",
      [],
    );
    await expect(refused).rejects.toThrow(TransportError);
    await expect(refused).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("createHttpFetch, cut connections", () => {
  it("rejects when the server closes the connection in the middle of a response", async () => {
    const cut = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-length": "100" });
      res.write('{"jsonrpc":');
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((r) => cut.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(cut.address() as AddressInfo).port}`;
    try {
      const t = createJsonRpcTransport({ url, timeoutMs: 2_000, fetch: createHttpFetch() });
      const error = await t.call("m", []).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).not.toBeInstanceOf(TimeoutError);
    } finally {
      await new Promise<void>((r) => cut.close(() => r()));
    }
  });
});
