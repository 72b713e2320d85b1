import { describe, it, expect } from "vitest";
import { parseBundleRequest, quoteCreateLedBuys } from "../../../../src/domain/bundle/shape.js";
import { quoteInitialBuy } from "../../../../src/domain/create/request.js";
import type { CurveState } from "../../../../src/launch/curve-quote.js";
import { SPEC, TRADE_RULES, BUNDLE_RULES } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

// TIP_MAX_SOL's default (0.1 SOL).
const limits = { tipMaxLamports: 100_000_000n };
const create = { type: "create", name: "Laser", symbol: "LSR", uri: "https://x.io/m.json" };
const buy = (amount: unknown = "0.1", extra: Record<string, unknown> = {}) => ({
  type: "buy",
  amount,
  ...extra,
});
const sell = (amount: unknown = "1000", extra: Record<string, unknown> = { denominatedInSol: false }) => ({
  type: "sell",
  amount,
  ...extra,
});

describe("parseBundleRequest — accepted shapes", () => {
  it("create-led with three SOL buys by named wallets", () => {
    const r = parseBundleRequest(
      {
        accounts: [
          { ...create, wallet: addr(1), initial_buy: "1", slippage: 5 },
          buy("0.5", { wallet: addr(2) }),
          buy(1, { wallet: addr(3), slippageBps: 500 }),
          buy("2.000000001", { denominatedInSol: "true" }),
        ],
        bundleTip: "0.000001",
        confirm: false,
      },
      limits,
    );
    if (r.shape !== "create-led") throw new Error("shape");
    expect(r.tipLamports).toBe(1_000n);
    expect(r.confirm).toBe(false);
    expect(r.create.wallet).toBe(addr(1));
    expect(r.create.create.initialBuy).toEqual({ text: "1", lamports: 1_000_000_000n, slippageBps: 500n });
    expect(r.buys.map((b) => [b.wallet, b.amount, b.slippageBps, b.denominatedInSol])).toEqual([
      [addr(2), 500_000_000n, 200n, true],
      [addr(3), 1_000_000_000n, 500n, true],
      [undefined, 2_000_000_001n, 200n, true],
    ]);
    expect(r.legs.map((l) => l.type)).toEqual(["create", "buy", "buy", "buy"]);
  });

  it("a lone create", () => {
    const r = parseBundleRequest({ accounts: [create], bundleTip: 0.001 }, limits);
    expect(r.shape).toBe("create-led");
    expect(r.confirm).toBe(true);
    expect(r.tipLamports).toBe(1_000_000n);
  });

  it("existing-token buy (SOL or tokens) and sell, with pool", () => {
    const b = parseBundleRequest(
      {
        mint: addr(9),
        accounts: [buy("0.25", { pool: addr(8) })],
        bundleTip: "1e-6",
      },
      limits,
    );
    expect(b).toMatchObject({
      shape: "existing-token",
      mint: addr(9),
      trade: { type: "buy", denominatedInSol: true, amount: 250_000_000n, slippageBps: 200n, pool: addr(8) },
    });
    const t = parseBundleRequest(
      {
        mint: addr(9),
        accounts: [buy("12345", { denominatedInSol: false, slippageBps: "5000" })],
        bundleTip: "0.00001",
      },
      limits,
    );
    expect(t).toMatchObject({ trade: { denominatedInSol: false, amount: 12_345n, slippageBps: 5000n } });
    const s = parseBundleRequest({ mint: addr(9), accounts: [sell("777")], bundleTip: "0.00001" }, limits);
    expect(s).toMatchObject({ trade: { type: "sell", amount: 777n, amountText: "777" } });
  });
});

describe("parseBundleRequest — every spec text", () => {
  const tip = { bundleTip: "0.00001" };
  const cases: [string, Record<string, unknown>, string][] = [
    ["no accounts", { ...tip }, SPEC.bundle.legCount],
    ["empty accounts", { accounts: [], ...tip }, SPEC.bundle.legCount],
    ["five legs", { accounts: [create, buy(), buy(), buy(), buy()], ...tip }, SPEC.bundle.legCount],
    ["accounts not array", { accounts: create, ...tip }, SPEC.bundle.legCount],
    ["trade without mint", { accounts: [buy()], ...tip }, SPEC.bundle.mintRequired],
    ["sell without mint", { accounts: [sell()], ...tip }, SPEC.bundle.mintRequired],
    ["trade then create, no mint", { accounts: [buy(), create], ...tip }, SPEC.bundle.mintRequired],
    ["mint with create", { mint: addr(9), accounts: [create, buy()], ...tip }, SPEC.bundle.mintWithCreate],
    [
      "mint with later create",
      { mint: addr(9), accounts: [buy(), create], ...tip },
      SPEC.bundle.mintWithCreate,
    ],
    [
      "buy without amount",
      { mint: addr(9), accounts: [{ type: "buy" }], ...tip },
      SPEC.bundle.amountRequired,
    ],
    [
      "create-led buy without amount",
      { accounts: [create, { type: "buy" }], ...tip },
      SPEC.bundle.amountRequired,
    ],
    [
      "token buy after create",
      { accounts: [create, buy("1000", { denominatedInSol: false })], ...tip },
      SPEC.bundle.newTokenLegs,
    ],
    ["second create", { accounts: [create, create], ...tip }, SPEC.bundle.newTokenLegs],
    ["sell after create", { accounts: [create, buy(), sell()], ...tip }, SPEC.bundle.sellAfterCreate],
    [
      "two existing trades",
      { mint: addr(9), accounts: [buy(), sell()], ...tip },
      SPEC.bundle.oneExistingTrade,
    ],
    ["two existing buys", { mint: addr(9), accounts: [buy(), buy()], ...tip }, SPEC.bundle.oneExistingTrade],
    [
      "slippageBps over 5000",
      { mint: addr(9), accounts: [buy("1", { slippageBps: 5001 })], ...tip },
      SPEC.bundle.slippageBpsMax,
    ],
    ["tip too small", { accounts: [create], bundleTip: "0.000000999" }, SPEC.bundle.tipMin],
    ["tip zero", { accounts: [create], bundleTip: 0 }, SPEC.bundle.tipMin],
    [
      "sell in SOL (default true)",
      { mint: addr(9), accounts: [sell("1", {})], ...tip },
      SPEC.trade.sellInSol,
    ],
    ["tip 10 decimals", { accounts: [create], bundleTip: "0.0000010001" }, SPEC.trade.solDecimals],
    ["missing tip", { accounts: [create] }, BUNDLE_RULES.bundleTipRequired],
    ["tip text", { accounts: [create], bundleTip: "tip" }, BUNDLE_RULES.bundleTipInvalid],
    ["leg not object", { accounts: ["buy"], ...tip }, BUNDLE_RULES.legObject],
    ["leg type", { accounts: [{ type: "swap" }], ...tip }, BUNDLE_RULES.legType],
    ["percent amount", { mint: addr(9), accounts: [sell("50%")], ...tip }, BUNDLE_RULES.legPercent],
    [
      "slippage on trade leg",
      { mint: addr(9), accounts: [buy("1", { slippage: 5 })], ...tip },
      BUNDLE_RULES.legSlippage,
    ],
    [
      "negative slippageBps",
      { mint: addr(9), accounts: [buy("1", { slippageBps: -1 })], ...tip },
      BUNDLE_RULES.slippageBpsInvalid,
    ],
    [
      "fractional slippageBps",
      { mint: addr(9), accounts: [buy("1", { slippageBps: 1.5 })], ...tip },
      BUNDLE_RULES.slippageBpsInvalid,
    ],
    [
      "pool after create",
      { accounts: [create, buy("1", { pool: addr(8) })], ...tip },
      BUNDLE_RULES.poolWithCreate,
    ],
    ["bad pool", { mint: addr(9), accounts: [buy("1", { pool: "x" })], ...tip }, TRADE_RULES.poolInvalid],
    ["bad mint", { mint: "x", accounts: [buy()], ...tip }, TRADE_RULES.mintInvalid],
    [
      "bad leg wallet",
      { mint: addr(9), accounts: [buy("1", { wallet: "x" })], ...tip },
      TRADE_RULES.walletInvalid,
    ],
    [
      "bad denominatedInSol",
      { mint: addr(9), accounts: [buy("1", { denominatedInSol: "maybe" })], ...tip },
      BUNDLE_RULES.legDenominated,
    ],
    ["create leg rules apply", { accounts: [{ ...create, name: "" }], ...tip }, SPEC.create.nameSymbol],
    ["create leg uri", { accounts: [{ ...create, uri: "" }], ...tip }, SPEC.create.uriRequired],
    [
      "create leg slippage without buy",
      { accounts: [{ ...create, slippage: 3 }], ...tip },
      SPEC.create.slippageWithoutBuy,
    ],
    [
      "SOL buy 10 decimals",
      { mint: addr(9), accounts: [buy("0.0000000001")], ...tip },
      SPEC.trade.solDecimals,
    ],
    ["token sell fraction", { mint: addr(9), accounts: [sell("1.5")], ...tip }, TRADE_RULES.tokenUnits],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseBundleRequest(body, limits))).toBe(text));
  }
});

// Mainnet Global's fresh curve and the {protocol 95, creator 30} tier of the reference's worked example.
const fresh: CurveState = {
  virtualTokenReserves: 1_073_000_000_000_000n,
  virtualQuoteReserves: 30_000_000_000n,
  realTokenReserves: 793_100_000_000_000n,
  realQuoteReserves: 0n,
};
const fees = { protocolFeeBps: 95n, creatorFeeBps: 30n };

// An independent transcription of the program's buy_exact_sol_in formula (reference B.1.3), used as the oracle.
function oracleBuy(spendable: bigint, c: CurveState): { tokens: bigint; net: bigint } {
  const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
  let net = (spendable * 10_000n) / 10_125n;
  const f = ceil(net * 95n, 10_000n) + ceil(net * 30n, 10_000n);
  if (net + f > spendable) net -= net + f - spendable;
  const tokens = ((net - 1n) * c.virtualTokenReserves) / (c.virtualQuoteReserves + net - 1n);
  return { tokens, net };
}

describe("create-led quoting", () => {
  it("the dev buy matches the reference's worked example and advances the curve", () => {
    const q = quoteInitialBuy(fresh, { lamports: 1_000_000_000n, slippageBps: 200n }, fees);
    expect(q.tokensOut).toBe(34_199_203_120_618n);
    expect(q.minTokensOut).toBe(34_199_203_120_618n - (34_199_203_120_618n * 200n) / 10_000n);
    expect(q.curveAfter.virtualTokenReserves).toBe(1_073_000_000_000_000n - 34_199_203_120_618n);
    expect(q.curveAfter.virtualQuoteReserves).toBe(30_000_000_000n + 987_654_320n);
    expect(q.curveAfter.realQuoteReserves).toBe(987_654_320n);
  });

  it("three sequential buyers are quoted against the curve advanced by the dev buy and each earlier buyer", () => {
    const dev = quoteInitialBuy(fresh, { lamports: 1_000_000_000n, slippageBps: 200n }, fees);
    const legs = [
      { amount: 500_000_000n, slippageBps: 200n },
      { amount: 2_000_000_000n, slippageBps: 500n },
      { amount: 500_000_000n, slippageBps: 0n },
    ];
    const quotes = quoteCreateLedBuys(dev.curveAfter, legs, fees);

    let c = dev.curveAfter;
    const expected = legs.map((leg) => {
      const { tokens, net } = oracleBuy(leg.amount, c);
      c = {
        virtualTokenReserves: c.virtualTokenReserves - tokens,
        virtualQuoteReserves: c.virtualQuoteReserves + net,
        realTokenReserves: c.realTokenReserves - tokens,
        realQuoteReserves: c.realQuoteReserves + net,
      };
      return {
        lamports: leg.amount,
        tokensOut: tokens,
        minTokensOut: tokens - (tokens * leg.slippageBps) / 10_000n,
      };
    });
    expect(quotes).toEqual(expected);
    // The same 0.5 SOL buys fewer tokens later in the bundle.
    expect(quotes[2]!.tokensOut < quotes[0]!.tokensOut).toBe(true);
    // Not quoting against the fresh or the dev-advanced curve for later legs.
    expect(quotes[2]!.tokensOut).not.toBe(oracleBuy(500_000_000n, dev.curveAfter).tokens);
  });

  it("fees may follow the advanced curve", () => {
    const seen: bigint[] = [];
    quoteCreateLedBuys(
      fresh,
      [
        { amount: 100_000_000n, slippageBps: 0n },
        { amount: 100_000_000n, slippageBps: 0n },
      ],
      (curve) => {
        seen.push(curve.virtualQuoteReserves);
        return fees;
      },
    );
    expect(seen[0]).toBe(30_000_000_000n);
    expect(seen[1]! > seen[0]!).toBe(true);
  });

  it("refuses buys too small for one token after slippage and buys past an emptied curve", () => {
    expect(detailOf(() => quoteCreateLedBuys(fresh, [{ amount: 1n, slippageBps: 200n }], fees))).toBe(
      TRADE_RULES.tradeTooSmall,
    );
    const nearlyDone = { ...fresh, realTokenReserves: 1_000n };
    expect(
      detailOf(() =>
        quoteCreateLedBuys(
          nearlyDone,
          [
            { amount: 1_000_000_000n, slippageBps: 200n },
            { amount: 1_000_000_000n, slippageBps: 200n },
          ],
          fees,
        ),
      ),
    ).toBe(TRADE_RULES.exceedsReserves);
  });
});
