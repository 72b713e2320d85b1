/**
 * The trade endpoint's refusals: every text of the spec's Trade table, the documented unlisted ones, and
 * 503 on an app built without chain access. None of them sends anything.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EXECUTION, LAUNCH, SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import { buildTestApp } from "../../helpers/app.js";
import { expectAuthRequired } from "../../helpers/security.js";
import { startE2e, trade, type E2e } from "../../helpers/e2e.js";

let e2e: E2e;
let apiKey: string;
let mint: string;
beforeAll(async () => {
  e2e = await startE2e();
  ({ apiKey } = await e2e.setup());
  ({ mint } = e2e.localnet.admin.createToken());
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(() => e2e.reset());

async function refused(body: unknown, status = 400) {
  const res = await e2e.post(apiKey, "/v1/trades/execute", body);
  expect(res.statusCode, res.body).toBe(status);
  expect(e2e.localnet.admin.stats()["relay.sendTransaction"] ?? 0).toBe(0);
  return res.json<{ detail: string }>().detail;
}

describe("trade refusals", () => {
  it("gives the spec's texts", async () => {
    expect(await refused({ action: "hold", mint, amount: 1 })).toBe(SPEC.trade.badAction);
    expect(await refused({ action: "buy", mint, amount: true })).toBe(SPEC.trade.amountType);
    expect(await refused({ action: "buy", mint, amount: "0.0000000001" })).toBe(SPEC.trade.solDecimals);
    expect(await refused({ action: "sell", mint, amount: 5, denominated_in_sol: true })).toBe(
      SPEC.trade.sellInSol,
    );
    expect(await refused({ action: "buy", mint, amount: 1, slippage: 1, slippage_bps: 100 })).toBe(
      SPEC.trade.slippageBoth,
    );
  });

  it("gives the documented texts for rules the spec leaves unlisted", async () => {
    expect(await refused({ action: "buy", mint, amount: "0.1", slippage: 51 })).toBe(
      TRADE_RULES.slippageRange,
    );
    expect(await refused({ action: "sell", mint, amount: "0%" })).toBe(TRADE_RULES.percentRange);
    expect(await refused({ action: "sell", mint, amount: "100.5%" })).toBe(TRADE_RULES.percentRange);
    expect(await refused({ action: "buy", mint: "nope", amount: 1 })).toBe(TRADE_RULES.mintInvalid);
    expect(await refused({ action: "buy", amount: 1 })).toBe(TRADE_RULES.mintRequired);
    expect(await refused([1, 2])).toBe(EXECUTION.bodyObject);
    // Chain-dependent refusals, decided on the one read.
    expect(await refused({ action: "sell", mint, amount: "50%" })).toBe(TRADE_RULES.noTokenBalance);
    expect(await refused({ action: "sell", mint, amount: 1000 })).toBe(TRADE_RULES.tokenBalanceTooLow);
    expect(await refused({ action: "buy", mint: "11111111111111111111111111111112", amount: 1 })).toBe(
      LAUNCH.mintNotFound,
    );
  });

  it("a wallet of another key and an unknown wallet are both 404 wallet not found", async () => {
    const { wallet: foreign } = await e2e.setup({ sol: 0n });
    expect(await refused({ action: "buy", mint, amount: 1, wallet: foreign }, 404)).toBe("wallet not found");
    expect(
      await refused({ action: "buy", mint, amount: 1, wallet: "11111111111111111111111111111112" }, 404),
    ).toBe("wallet not found");
    expect(e2e.roundTrips()).toEqual({});
  });

  it("requires an API key", async () => {
    await expectAuthRequired(e2e.app, "POST", "/v1/trades/execute");
  });

  it("answers 503 when the app has no chain access", async () => {
    const t = await buildTestApp();
    try {
      const { apiKey: key } = await t.setup();
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/trades/execute",
        headers: { "x-api-key": key, "content-type": "application/json" },
        payload: JSON.stringify({ action: "buy", mint, amount: 1 }),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: "execution.chain_unavailable", detail: EXECUTION.chainUnavailable });
    } finally {
      await t.close();
    }
  });

  it("a dust sell that is worth nothing is refused", async () => {
    const { apiKey: key } = await e2e.setup();
    await trade(e2e, key, { action: "buy", mint, amount: "0.01" });
    const res = await e2e.post(key, "/v1/trades/execute", { action: "sell", mint, amount: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe(TRADE_RULES.tradeTooSmall);
  });
});
