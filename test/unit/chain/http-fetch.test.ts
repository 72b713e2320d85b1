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

describe("createHttpFetch, aborts", () => {
  const init = (signal: AbortSignal) => ({ method: "POST", headers: {}, body: '{"id":1}', signal });

  it("fails an aborted request with Node's AbortError, the signal's reason as its cause", async () => {
    const fetch = createHttpFetch();
    const abort = new AbortController();
    const pending = fetch(`${base}/slow`, init(abort.signal)).catch((e: unknown) => e);
    setTimeout(() => abort.abort(new Error("deadline")), 20);
    const error = (await pending) as Error & { code?: string; cause?: unknown };
    expect(error.name).toBe("AbortError");
    expect(error.code).toBe("ABORT_ERR");
    expect(error.message).toBe("The operation was aborted");
    expect((error.cause as Error).message).toBe("deadline");
    // A signal aborted before the call: nothing answered, the same error.
    const early = await fetch(base, init(AbortSignal.abort())).catch((e: unknown) => e);
    expect((early as Error).name).toBe("AbortError");
  });

  it("stops watching the signal once the answer is read", async () => {
    const fetch = createHttpFetch();
    const abort = new AbortController();
    const res = await fetch(base, init(abort.signal));
    expect(res.status).toBe(200);
    abort.abort();
    expect(JSON.parse(await res.text())).toMatchObject({ id: 1 });
    // The connection went back to the pool unharmed: the next call answers.
    expect((await fetch(base, init(new AbortController().signal))).status).toBe(200);
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
