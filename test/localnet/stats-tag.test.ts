import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/api.js";

let net: LocalnetHandle;
beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
});
afterAll(() => net.close());

const call = (headers: Record<string, string>) =>
  fetch(net.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [] }),
  });

describe("call stats", () => {
  it("count calls tagged with x-localnet-tag apart, and ignore a malformed tag", async () => {
    net.admin.resetStats();
    await call({});
    await call({ "x-localnet-tag": "background" });
    await call({ "x-localnet-tag": "background" });
    await call({ "x-localnet-tag": "Not A Tag!" });
    expect(net.admin.stats()).toEqual({ "rpc.getSlot": 2, "background:rpc.getSlot": 2 });
  });
});
