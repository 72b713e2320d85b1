/** Trades on the bonding curve through the HTTP API against the localnet. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startE2e, type E2e } from "../helpers/e2e.js";

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(() => e2e.reset());

describe("POST /v1/trades/execute on the bonding curve", () => {
  it("SOL buy", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.1",
      measure_timing: true,
    });
    console.log(res.statusCode, res.body);
    expect(res.statusCode).toBe(200);
    console.log(await e2e.tokenBalance(wallet, mint));
  });
});
