/** Issue 23: upstream bodies are read with a size cap; the localnet refuses cross-site admin and RPC calls. */
import { createServer, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { createHttpFetch } from "../../../src/chain/http-fetch.js";

describe("upstream size cap", () => {
  it("a response longer than the cap fails the call instead of filling memory", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("x".repeat(200_000));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      const capped = createHttpFetch({ maxResponseBytes: 100_000 });
      await expect(
        capped(url, { method: "POST", headers: {}, body: "{}", signal: AbortSignal.timeout(5_000) }),
      ).rejects.toThrow(/exceeds 100000 bytes/);
      const roomy = createHttpFetch({ maxResponseBytes: 300_000 });
      expect(
        (
          await (
            await roomy(url, { method: "POST", headers: {}, body: "{}", signal: AbortSignal.timeout(5_000) })
          ).text()
        ).length,
      ).toBe(200_000);
    } finally {
      server.close();
    }
  });
});

describe("localnet cross-site guard", () => {
  let net: LocalnetHandle;
  beforeAll(async () => {
    net = await startLocalnet({ port: 0, slotMs: 0 });
  });
  afterAll(async () => net.close());

  it("refuses text/plain POSTs to admin and RPC, and a non-loopback Host", async () => {
    const plain = await fetch(`${net.adminUrl}/slots`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ n: 1 }),
    });
    expect(plain.status).toBe(415);
    const rpc = await fetch(net.rpcUrl, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
    });
    expect(rpc.status).toBe(415);
    const port = new URL(net.rpcUrl).port;
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/admin/faults",
          method: "GET",
          headers: { host: `evil.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const ok = await fetch(`${net.adminUrl}/slots`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: 1 }),
    });
    expect(ok.status).toBe(200);
  });
});
