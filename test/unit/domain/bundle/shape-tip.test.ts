/**
 * The bundle tip's rules, read once by the bundle's parser: the spec's minimum, then the configured maximum
 * (TIP_MAX_SOL), both after every leg rule, so a body that breaks a rule the spec lists earlier gets that
 * rule's text whatever its tip. Texts are written out, not taken from the catalog, so a changed text fails.
 */
import { describe, expect, it } from "vitest";
import { parseBundleRequest } from "../../../../src/domain/bundle/shape.js";
import { badRequestDetailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

// 0.001 SOL: small enough that the tests' tips cross it.
const limits = { tipMaxLamports: 1_000_000n };
const create = { type: "create", name: "Laser", symbol: "LSR", uri: "https://x.io/m.json" };
const buy = (extra: Record<string, unknown> = {}) => ({ type: "buy", amount: "0.1", ...extra });
const sell = { type: "sell", amount: "1000", denominatedInSol: false };
const refusal = (body: Record<string, unknown>): string =>
  badRequestDetailOf(() => parseBundleRequest(body, limits));

describe("bundle tip: the maximum is the tip's last rule", () => {
  it("the reported body answers the spec's leg-count text, not the maximum", () => {
    expect(refusal({ accounts: [], bundleTip: "999" })).toBe(
      "accounts must contain between 1 and 4 bundle legs",
    );
  });

  // Every body rule of the spec's table above `bundleTip`, each with a tip far above the maximum.
  const earlier: [string, Record<string, unknown>, string][] = [
    ["no accounts", {}, "accounts must contain between 1 and 4 bundle legs"],
    [
      "five legs",
      { accounts: [create, buy(), buy(), buy(), buy()] },
      "accounts must contain between 1 and 4 bundle legs",
    ],
    ["trade leg without mint", { accounts: [buy()] }, "mint is required before buy or sell legs"],
    [
      "mint with create",
      { mint: addr(9), accounts: [create] },
      "mint must not be supplied with a create leg",
    ],
    [
      "leg without amount",
      { mint: addr(9), accounts: [{ type: "buy" }] },
      "amount is required for buy and sell legs",
    ],
    [
      "token buy after create",
      { accounts: [create, buy({ denominatedInSol: false })] },
      "new-token bundle legs must be SOL-denominated buys",
    ],
    ["sell after create", { accounts: [create, sell] }, "sell legs are not supported after a create leg"],
    [
      "two existing-token trades",
      { mint: addr(9), accounts: [buy(), sell] },
      "only one trade against an existing token is supported per bundle",
    ],
    [
      "slippageBps over 5000",
      { mint: addr(9), accounts: [buy({ slippageBps: 5001 })] },
      "slippageBps must not exceed 5000",
    ],
  ];
  for (const [label, body, text] of earlier) {
    it(`${label}: the leg rule's text`, () => {
      for (const tip of [{ bundleTip: "999" }, { tip: 5 }, { bundle_tip: "0.5" }])
        expect(refusal({ ...body, ...tip }), JSON.stringify(tip)).toBe(text);
    });
  }

  it("a tip above the maximum is refused under each of its names, naming both amounts", () => {
    for (const field of ["bundleTip", "bundle_tip", "tip"]) {
      expect(refusal({ accounts: [create], [field]: "0.5" }), field).toBe(
        "tip 0.5 SOL is above the maximum of 0.001 SOL (TIP_MAX_SOL)",
      );
      expect(refusal({ mint: addr(9), accounts: [sell], [field]: 2 }), field).toBe(
        "tip 2 SOL is above the maximum of 0.001 SOL (TIP_MAX_SOL)",
      );
    }
  });

  it("the maximum itself and the spec's minimum pass", () => {
    expect(parseBundleRequest({ accounts: [create], bundleTip: "0.001" }, limits).tipLamports).toBe(
      1_000_000n,
    );
    expect(parseBundleRequest({ accounts: [create], tip: "0.000001" }, limits).tipLamports).toBe(1_000n);
  });

  it("the tip's own rules keep their texts before the maximum", () => {
    expect(refusal({ accounts: [create] })).toBe("bundleTip is required");
    expect(refusal({ accounts: [create], bundleTip: "lots" })).toBe(
      "bundleTip must be a SOL amount as a number or decimal string",
    );
    expect(refusal({ accounts: [create], bundleTip: "0.000000999" })).toBe(
      "bundleTip must be at least 0.000001 SOL",
    );
    expect(refusal({ accounts: [create], bundleTip: "999.0000000001" })).toBe(
      "SOL amounts cannot have more than 9 decimal places",
    );
    expect(refusal({ accounts: [create], bundleTip: "0.0001", tip: "999" })).toBe(
      "tip and bundleTip name the same field and disagree; send one of them",
    );
  });
});
