/**
 * The order of a body's 400s on every execution route: the endpoint's own rules (the spec's texts, in the
 * spec's order) answer before the issue-22 fee fields `priority_fee` / `tip`, and a bundle's tip maximum is
 * checked with the tip, after every leg rule. A fee field is still refused on a body its endpoint accepts.
 * Spec texts are written out, so a changed text fails here.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { REQUEST_FEES } from "../../src/core/errors.js";
import { useE2e } from "../helpers/use-e2e.js";

const e2e = useE2e();

const external = (): string => Keypair.generate().publicKey.toBase58();
/** Bad fee fields that a body rule listed by the spec must outrank. */
const BAD_FEES: Record<string, unknown>[] = [
  { tip: "999" },
  { tip: "abc" },
  { priority_fee: "5" },
  { priority_fee: -1 },
  { priority_fee: "0.001", priorityFee: "0.002" },
];

/** POSTs each body with each bad fee field; every answer must be 400 with `detail` exactly. */
async function expectDetail(url: string, body: Record<string, unknown>, detail: string): Promise<void> {
  const { apiKey } = await e2e.setup({ sol: 1n });
  for (const fees of BAD_FEES) {
    const r = await e2e.post(apiKey, url, { ...body, ...fees });
    expect(r.statusCode, `${url} ${JSON.stringify(fees)}`).toBe(400);
    expect(r.json(), `${url} ${JSON.stringify(fees)}`).toEqual({ detail });
  }
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
}

/** A body the endpoint accepts still gets the fee field's own 400. */
async function expectFeeRefused(url: string, body: Record<string, unknown>): Promise<void> {
  const { apiKey } = await e2e.setup({ sol: 1n });
  const cases: [Record<string, unknown>, string][] = [
    [{ tip: "0.5" }, REQUEST_FEES.tipTooHigh("0.5", "0.1")],
    [{ priority_fee: "abc" }, REQUEST_FEES.priorityFeeInvalid],
  ];
  for (const [fees, detail] of cases) {
    const r = await e2e.post(apiKey, url, { ...body, ...fees });
    expect(r.statusCode, `${url} ${JSON.stringify(fees)}`).toBe(400);
    expect(r.json()).toEqual({ detail });
  }
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
}

describe("POST /v1/laser/bundle", () => {
  it("the reported body: no legs and a tip above TIP_MAX_SOL answers the spec's leg-count text", async () => {
    const { apiKey } = await e2e.setup({ sol: 1n });
    const r = await e2e.post(apiKey, "/v1/laser/bundle", { accounts: [], bundleTip: "999" });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ detail: "accounts must contain between 1 and 4 bundle legs" });
  });

  it("leg rules outrank a bad tip or priority fee; the tip maximum comes last", async () => {
    await expectDetail(
      "/v1/laser/bundle",
      { accounts: [] },
      "accounts must contain between 1 and 4 bundle legs",
    );
    const buy = { type: "buy", amount: "0.1" };
    await expectDetail("/v1/laser/bundle", { accounts: [buy] }, "mint is required before buy or sell legs");
    await expectDetail(
      "/v1/laser/bundle",
      { mint: external(), accounts: [{ ...buy, slippageBps: 5001 }] },
      "slippageBps must not exceed 5000",
    );
    const create = { type: "create", name: "Ord", symbol: "ORD", uri: "https://example.com/o.json" };
    const { apiKey } = await e2e.setup({ sol: 1n });
    for (const tip of [{ bundleTip: "999" }, { tip: "999" }]) {
      const r = await e2e.post(apiKey, "/v1/laser/bundle", { accounts: [create], ...tip });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ detail: REQUEST_FEES.tipTooHigh("999", "0.1") });
    }
    const fee = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [create],
      bundleTip: "0.0001",
      priority_fee: "abc",
    });
    expect(fee.json()).toEqual({ detail: REQUEST_FEES.priorityFeeInvalid });
  });
});

describe("POST /v1/trades/execute", () => {
  const mint = external();
  it("the trade's rules outrank a bad tip or priority fee", async () => {
    await expectDetail(
      "/v1/trades/execute",
      { action: "hold", mint, amount: "0.1" },
      "action must be buy or sell",
    );
    await expectDetail(
      "/v1/trades/execute",
      { action: "buy", mint, amount: true },
      "amount must be a number or string",
    );
    await expectDetail(
      "/v1/trades/execute",
      { action: "buy", mint, amount: "0.0000000001" },
      "SOL amounts cannot have more than 9 decimal places",
    );
    await expectDetail(
      "/v1/trades/execute",
      { action: "sell", mint, amount: "10", denominated_in_sol: true },
      "sell amount must be denominated in token units",
    );
    await expectDetail(
      "/v1/trades/execute",
      { action: "buy", mint, amount: "0.1", slippage: 1, slippage_bps: 100 },
      "use either slippage or slippage_bps, not both",
    );
  });

  it("a valid trade body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/trades/execute", { action: "buy", mint, amount: "0.1" });
  });
});

describe("POST /v1/laser/create", () => {
  const token = { name: "Ord", symbol: "ORD", uri: "https://example.com/o.json" };
  it("the create rules outrank a bad tip or priority fee", async () => {
    await expectDetail("/v1/laser/create", { ...token, name: "" }, "name and symbol are required");
    await expectDetail(
      "/v1/laser/create",
      { ...token, uri: "" },
      "uri is required and must be externally hosted",
    );
    await expectDetail(
      "/v1/laser/create",
      { ...token, slippage: 3 },
      "slippage is only valid when initial_buy is provided",
    );
  });

  it("a valid create body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/laser/create", token);
  });
});

describe("POST /v1/cashback/claim/execute", () => {
  it("the claim rule outranks a bad tip or priority fee", async () => {
    await expectDetail(
      "/v1/cashback/claim/execute",
      { claim_bonding_curve: false, claim_launchswap: false },
      "at least one claim type must be enabled",
    );
  });

  it("a valid claim body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/cashback/claim/execute", {});
  });
});

describe("POST /v1/sol/transfer/execute", () => {
  it("the transfer rules outrank a bad tip or priority fee", async () => {
    await expectDetail(
      "/v1/sol/transfer/execute",
      { destination_wallet: "nope", amount: "1" },
      "invalid destination wallet address",
    );
    await expectDetail(
      "/v1/sol/transfer/execute",
      { destination_wallet: external(), mint: "nope", amount: "1" },
      "invalid token mint address",
    );
    await expectDetail(
      "/v1/sol/transfer/execute",
      { destination_wallet: external(), mint: external(), amount: "1.5" },
      "token amount must be a positive integer",
    );
    const same = external();
    await expectDetail(
      "/v1/sol/transfer/execute",
      { destination_wallet: same, source_wallet: same, amount: "1" },
      "destination wallet cannot be the source wallet",
    );
  });

  it("a valid transfer body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/sol/transfer/execute", { destination_wallet: external(), amount: "0.1" });
  });
});

describe("POST /v1/sol/consolidate/execute", () => {
  it("the consolidate rules outrank a bad tip or priority fee", async () => {
    const url = "/v1/sol/consolidate/execute";
    await expectDetail(url, { destination_wallet: "nope" }, "invalid destination wallet address");
    await expectDetail(
      url,
      { destination_wallet: external(), source_wallets: [] },
      "source_wallets must contain between 1 and 50 wallets",
    );
    const a = external();
    await expectDetail(
      url,
      { destination_wallet: external(), source_wallets: [a, a] },
      "source wallets must be unique",
    );
    const d = external();
    await expectDetail(
      url,
      { destination_wallet: d, source_wallets: [d] },
      "destination wallet cannot be one of the source wallets",
    );
  });

  it("a valid consolidate body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/sol/consolidate/execute", { destination_wallet: external() });
  });
});

describe("POST /v1/sol/split/execute", () => {
  it("the split rules outrank a bad tip or priority fee", async () => {
    const url = "/v1/sol/split/execute";
    await expectDetail(url, { destinations: [] }, "destinations must contain between 1 and 5 wallets");
    await expectDetail(
      url,
      { destinations: [{ wallet: external(), sol: "0.1", percent: 10 }] },
      "each destination must use either percent or sol, not both",
    );
    const w = external();
    await expectDetail(
      url,
      { destinations: [{ wallet: w }, { wallet: w }] },
      "destination wallets must be unique",
    );
    await expectDetail(
      url,
      { destinations: [{ wallet: external() }], total_percent: 0 },
      "total_percent must be greater than 0 and at most 100",
    );
    await expectDetail(
      url,
      { source_wallet: w, destinations: [{ wallet: w }] },
      "destination cannot be the source wallet",
    );
  });

  it("a valid split body still gets the fee field's 400", async () => {
    await expectFeeRefused("/v1/sol/split/execute", { destinations: [{ wallet: external() }] });
  });
});
