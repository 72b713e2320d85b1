import { describe, it, expect } from "vitest";
import { createBundleRelayClient } from "../../../src/chain/bundle-relay-client.js";
import { createRelayClient } from "../../../src/chain/relay-client.js";
import { HttpError } from "../../../src/chain/upstream-errors.js";
import type { FetchLike } from "../../../src/chain/json-rpc.js";

function fetchReturning(status: number, result: string, seen: { url: string; body: unknown }[]): FetchLike {
  return (url, init) => {
    seen.push({ url, body: JSON.parse(init.body) });
    return Promise.resolve({ status, text: () => Promise.resolve(result) });
  };
}

describe("submission relay client", () => {
  it("sends base64 with skipPreflight and maxRetries 0", async () => {
    const seen: { url: string; body: unknown }[] = [];
    const relay = createRelayClient({
      url: "http://relay.test/relay",
      timeoutMs: 100,
      fetch: fetchReturning(200, '{"jsonrpc":"2.0","id":1,"result":"sig"}', seen),
    });
    expect(await relay.sendTransaction(new Uint8Array([1, 2, 3]))).toBe("sig");
    expect(seen[0]).toEqual({
      url: "http://relay.test/relay",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "sendTransaction",
        params: ["AQID", { encoding: "base64", skipPreflight: true, maxRetries: 0 }],
      },
    });
  });

  it("surfaces the relay's own error text on HTTP failures", async () => {
    const relay = createRelayClient({
      url: "http://relay.test/relay",
      timeoutMs: 100,
      fetch: fetchReturning(
        400,
        '{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid request"},"id":"1"}',
        [],
      ),
    });
    const e = await relay.sendTransaction(new Uint8Array([1])).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).message).toContain("Invalid request");
  });
});

describe("bundle relay client", () => {
  it("sends bundles as base64 to the block-engine path and returns the id", async () => {
    const seen: { url: string; body: unknown }[] = [];
    const client = createBundleRelayClient({
      url: "http://be.test/",
      timeoutMs: 100,
      fetch: fetchReturning(200, `{"jsonrpc":"2.0","id":1,"result":"${"a".repeat(64)}"}`, seen),
    });
    expect(await client.sendBundle([new Uint8Array([1]), new Uint8Array([2])])).toBe("a".repeat(64));
    expect(seen[0]?.url).toBe("http://be.test/api/v1/bundles");
    expect(seen[0]?.body).toMatchObject({
      method: "sendBundle",
      params: [["AQ==", "Ag=="], { encoding: "base64" }],
    });
    await expect(client.sendBundle([])).rejects.toThrow(RangeError);
  });

  it("decodes Jito status shapes, aligned with the ids asked", async () => {
    const seen: { url: string; body: unknown }[] = [];
    const inflight = createBundleRelayClient({
      url: "http://be.test",
      timeoutMs: 100,
      paths: { getInflightBundleStatuses: "/api/v1/getInflightBundleStatuses" },
      fetch: fetchReturning(
        200,
        '{"jsonrpc":"2.0","result":{"context":{"slot":280999028},"value":[{"bundle_id":"b2","status":"Landed","landed_slot":280999000}]},"id":1}',
        seen,
      ),
    });
    expect(await inflight.getInflightBundleStatuses(["b1", "b2"])).toEqual([
      null,
      { bundleId: "b2", status: "Landed", landedSlot: 280999000 },
    ]);
    expect(seen[0]?.url).toBe("http://be.test/api/v1/getInflightBundleStatuses");

    const landed = createBundleRelayClient({
      url: "http://be.test",
      timeoutMs: 100,
      fetch: fetchReturning(
        200,
        '{"jsonrpc":"2.0","result":{"context":{"slot":242806119},"value":[{"bundle_id":"b1","transactions":["s1"],"slot":242804011,"confirmation_status":"finalized","err":{"Ok":null}}]},"id":1}',
        [],
      ),
    });
    expect(await landed.getBundleStatuses(["b1"])).toEqual([
      { bundleId: "b1", transactions: ["s1"], slot: 242804011, confirmationStatus: "finalized", err: null },
    ]);
    const miss = createBundleRelayClient({
      url: "http://be.test",
      timeoutMs: 100,
      fetch: fetchReturning(200, '{"jsonrpc":"2.0","result":null,"id":1}', []),
    });
    expect(await miss.getBundleStatuses(["x"])).toEqual([null]);
  });
});
