import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2e, type E2e } from "../../helpers/e2e.js";

let e2e: E2e;
beforeAll(async () => {
  // A refresh every 20 ms: many background cache reads fall inside any measured window.
  e2e = await startE2e({ chain: { cacheRefreshMs: 20 } });
});
afterAll(() => e2e.close());

describe("e2e harness round-trip count", () => {
  it("leaves out the chain caches' background refreshes and keeps the request's own calls", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.reset();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = e2e.localnet.admin.stats();
    expect(before["background:rpc.getLatestBlockhash"] ?? 0).toBeGreaterThan(0);
    expect(e2e.roundTrips()).toEqual({});

    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.01",
      simulate: false,
      confirm: false,
    });
    expect(res.statusCode).toBe(200);
    expect(e2e.roundTrips()).toEqual({ "rpc.getMultipleAccounts": 1, "relay.sendTransaction": 1 });
  });
});
