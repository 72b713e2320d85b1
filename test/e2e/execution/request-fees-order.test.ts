/**
 * The order of a body's 400s on every execution route: the endpoint's own rules (the spec's texts, in the
 * spec's order) answer before the issue-22 fee fields `priority_fee` / `tip`, and a bundle's tip maximum is
 * checked with the tip, after every leg rule. A fee field is still refused on a body its endpoint accepts.
 * Spec texts are written out, so a changed text fails here.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { REQUEST_FEES } from "../../../src/core/errors.js";
import { useE2e } from "../../helpers/use-e2e.js";

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

/** POSTs each body with each bad fee field; every answer must be 400 with the body rule's `detail` exactly. */
async function expectDetails(url: string, cases: [Record<string, unknown>, string][]): Promise<void> {
  const { apiKey } = await e2e.setup({ sol: 1n });
  for (const [body, detail] of cases)
    for (const fees of BAD_FEES) {
      const r = await e2e.post(apiKey, url, { ...body, ...fees });
      const label = `${url} ${JSON.stringify({ ...body, ...fees })}`;
      expect(r.statusCode, label).toBe(400);
      // The spec's text, exactly; fields beside it (e.g. a token amount's `expected_unit`) may explain it.
      expect((r.json() as { detail: string }).detail, label).toBe(detail);
    }
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
}

/** A body the endpoint accepts still gets the fee field's own 400. */
async function expectFeeRefused(url: string, body: Record<string, unknown>): Promise<void> {
  const { apiKey } = await e2e.setup({ sol: 1n });
  // A bundle's tip is its bundleTip (tip is only its alias).
  const tipField = "bundleTip" in body ? "bundleTip" : "tip";
  const cases: [Record<string, unknown>, string, string][] = [
    [{ [tipField]: "0.5" }, REQUEST_FEES.tipTooHigh("0.5", "0.1"), "fees.tip_too_high"],
    [{ priority_fee: "abc" }, REQUEST_FEES.priorityFeeInvalid, "fees.priority_fee_invalid"],
  ];
  for (const [fees, detail, code] of cases) {
    const r = await e2e.post(apiKey, url, { ...body, ...fees });
    expect(r.statusCode, `${url} ${JSON.stringify(fees)}`).toBe(400);
    expect(r.json()).toEqual({ detail, code });
  }
  expect(e2e.roundTrips()["relay.sendTransaction"] ?? 0).toBe(0);
}

const mint = external();
const same = external();
const create = { type: "create", name: "Ord", symbol: "ORD", uri: "https://example.com/o.json" };
const token = { name: "Ord", symbol: "ORD", uri: "https://example.com/o.json" };

/** Per execution route: bodies that break a rule the spec lists (its text), and a body it accepts. */
const ROUTES: { url: string; rules: [Record<string, unknown>, string][]; valid: Record<string, unknown> }[] =
  [
    {
      url: "/v1/laser/bundle",
      rules: [
        [{ accounts: [] }, "accounts must contain between 1 and 4 bundle legs"],
        [{ accounts: [{ type: "buy", amount: "0.1" }] }, "mint is required before buy or sell legs"],
        [
          { mint, accounts: [{ type: "buy", amount: "0.1", slippageBps: 5001 }] },
          "slippageBps must not exceed 5000",
        ],
      ],
      valid: { accounts: [create], bundleTip: "0.0001" },
    },
    {
      url: "/v1/trades/execute",
      rules: [
        [{ action: "hold", mint, amount: "0.1" }, "action must be buy or sell"],
        [{ action: "buy", mint, amount: true }, "amount must be a number or string"],
        [
          { action: "buy", mint, amount: "0.0000000001" },
          "SOL amounts cannot have more than 9 decimal places",
        ],
        [
          { action: "sell", mint, amount: "10", denominated_in_sol: true },
          "sell amount must be denominated in token units",
        ],
        [
          { action: "buy", mint, amount: "0.1", slippage: 1, slippage_bps: 100 },
          "use either slippage or slippage_bps, not both",
        ],
      ],
      valid: { action: "buy", mint, amount: "0.1" },
    },
    {
      url: "/v1/laser/create",
      rules: [
        [{ ...token, name: "" }, "name and symbol are required"],
        [{ ...token, uri: "" }, "uri is required and must be externally hosted"],
        [{ ...token, slippage: 3 }, "slippage is only valid when initial_buy is provided"],
      ],
      valid: token,
    },
    {
      url: "/v1/cashback/claim/execute",
      rules: [
        [{ claim_bonding_curve: false, claim_launchswap: false }, "at least one claim type must be enabled"],
      ],
      valid: {},
    },
    {
      url: "/v1/sol/transfer/execute",
      rules: [
        [{ destination_wallet: "nope", amount: "1" }, "invalid destination wallet address"],
        [
          { destination_wallet: same, source_wallet: same, amount: "1" },
          "destination wallet cannot be the source wallet",
        ],
        [{ destination_wallet: external(), mint: "nope", amount: "1" }, "invalid token mint address"],
        [{ destination_wallet: external(), mint, amount: "1.5" }, "token amount must be a positive integer"],
      ],
      valid: { destination_wallet: external(), amount: "0.1" },
    },
    {
      url: "/v1/sol/consolidate/execute",
      rules: [
        [{ destination_wallet: "nope" }, "invalid destination wallet address"],
        [
          { destination_wallet: external(), source_wallets: [] },
          "source_wallets must contain between 1 and 50 wallets",
        ],
        [{ destination_wallet: external(), source_wallets: [same, same] }, "source wallets must be unique"],
        [
          { destination_wallet: same, source_wallets: [same] },
          "destination wallet cannot be one of the source wallets",
        ],
      ],
      valid: { destination_wallet: external() },
    },
    {
      url: "/v1/sol/split/execute",
      rules: [
        [{ destinations: [] }, "destinations must contain between 1 and 5 wallets"],
        [
          { destinations: [{ wallet: external(), sol: "0.1", percent: 10 }] },
          "each destination must use either percent or sol, not both",
        ],
        [{ destinations: [{ wallet: same }, { wallet: same }] }, "destination wallets must be unique"],
        [
          { destinations: [{ wallet: external() }], total_percent: 0 },
          "total_percent must be greater than 0 and at most 100",
        ],
        [
          { source_wallet: same, destinations: [{ wallet: same }] },
          "destination cannot be the source wallet",
        ],
      ],
      valid: { destinations: [{ wallet: external() }] },
    },
  ];

describe("POST /v1/laser/bundle: the reported body", () => {
  it("no legs and a tip above TIP_MAX_SOL answers the spec's leg-count text", async () => {
    const { apiKey } = await e2e.setup({ sol: 1n });
    const r = await e2e.post(apiKey, "/v1/laser/bundle", { accounts: [], bundleTip: "999" });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: "bundle.leg_count",
      detail: "accounts must contain between 1 and 4 bundle legs",
    });
  });

  it("valid legs with a tip above TIP_MAX_SOL, under either name, still get the maximum's 400", async () => {
    const { apiKey } = await e2e.setup({ sol: 1n });
    for (const tip of [{ bundleTip: "999" }, { tip: "999" }]) {
      const r = await e2e.post(apiKey, "/v1/laser/bundle", { accounts: [create], ...tip });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ code: "fees.tip_too_high", detail: REQUEST_FEES.tipTooHigh("999", "0.1") });
    }
  });
});

for (const { url, rules, valid } of ROUTES) {
  describe(`POST ${url}`, () => {
    it("the endpoint's body rules outrank a bad tip or priority fee", async () => {
      await expectDetails(url, rules);
    });

    it("a body the endpoint accepts still gets the fee field's 400", async () => {
      await expectFeeRefused(url, valid);
    });
  });
}
