/**
 * Issue 22 item 2: which reconciled records get a fill, and the fill request built from the record; issue 33: a
 * bundle's per-leg requests.
 */
import { describe, expect, it } from "vitest";
import { fillRequestOfRecord, legFillRequestsOfRecord } from "../../../../src/domain/execution/fill.js";

const W = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
const MINT = "So11111111111111111111111111111111111111112";
const base = {
  kind: "trade" as const,
  wallet: W,
  signatures: ["sig"],
  request: { action: "buy", mint: MINT },
  response: { mint: MINT, confirmed: false },
};

describe("fillRequestOfRecord", () => {
  it("a single-transaction trade: the wallet, the resolved mint and the side", () => {
    expect(fillRequestOfRecord(base)).toEqual({ wallet: W, mint: MINT, side: "buy" });
    expect(fillRequestOfRecord({ ...base, request: { action: "sell", mint: MINT } })).toEqual({
      wallet: W,
      mint: MINT,
      side: "sell",
    });
  });

  it("prefers the response's mint (a request may name only a pool), else the request's", () => {
    expect(fillRequestOfRecord({ ...base, request: { action: "buy", mint: null } })?.mint).toBe(MINT);
    expect(fillRequestOfRecord({ ...base, response: null })?.mint).toBe(MINT);
  });

  it("a create with a dev buy: a buy of the created mint; none without a dev buy", () => {
    const create = { ...base, kind: "create" as const, request: { name: "N", initial_buy: "0.1" } };
    expect(fillRequestOfRecord(create)).toEqual({ wallet: W, mint: MINT, side: "buy" });
    expect(fillRequestOfRecord({ ...create, request: { name: "N", initial_buy: null } })).toBeNull();
  });

  it("none for other kinds, several signatures, an unknown side or no mint", () => {
    expect(fillRequestOfRecord({ ...base, kind: "transfer" })).toBeNull();
    expect(fillRequestOfRecord({ ...base, kind: "bundle" })).toBeNull();
    expect(fillRequestOfRecord({ ...base, signatures: ["a", "b"] })).toBeNull();
    expect(fillRequestOfRecord({ ...base, request: { action: "swap", mint: MINT } })).toBeNull();
    expect(fillRequestOfRecord({ ...base, request: { action: "buy" }, response: null })).toBeNull();
  });
});

describe("legFillRequestsOfRecord (issue 33)", () => {
  const B = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
  const TIPS = ["tip1"];
  const bundle = {
    kind: "bundle" as const,
    signatures: ["s0", "s1", "s2"],
    request: {
      shape: "create-led",
      mint: MINT,
      legs: [
        { index: 0, type: "create", wallet: W, initial_buy: "0.2" },
        { index: 1, type: "buy", wallet: B },
        { index: 2, type: "buy", wallet: W },
      ],
    },
    response: null,
  };
  it("one request per leg, each for its own wallet, with the bundle's tip accounts", () => {
    expect(legFillRequestsOfRecord(bundle, TIPS)).toEqual([
      { wallet: W, mint: MINT, side: "buy", tipAccounts: TIPS },
      { wallet: B, mint: MINT, side: "buy", tipAccounts: TIPS },
      { wallet: W, mint: MINT, side: "buy", tipAccounts: TIPS },
    ]);
  });
  it("a create leg without a dev buy reads nothing; a sell leg is a sell", () => {
    const legs = [{ index: 0, type: "create", wallet: W, initial_buy: null }, { ...bundle.request.legs[1] }];
    expect(
      legFillRequestsOfRecord({ ...bundle, signatures: ["a", "b"], request: { mint: MINT, legs } }, TIPS),
    ).toEqual([null, { wallet: B, mint: MINT, side: "buy", tipAccounts: TIPS }]);
    const sell = { mint: MINT, legs: [{ index: 0, type: "sell", wallet: B }] };
    expect(legFillRequestsOfRecord({ ...bundle, signatures: ["a"], request: sell }, TIPS)?.[0]?.side).toBe(
      "sell",
    );
  });
  it("none without a mint, with legs and signatures that disagree, or for another kind", () => {
    expect(
      legFillRequestsOfRecord({ ...bundle, request: { ...bundle.request, mint: null } }, TIPS),
    ).toBeNull();
    expect(legFillRequestsOfRecord({ ...bundle, signatures: ["s0"] }, TIPS)).toBeNull();
    expect(legFillRequestsOfRecord({ ...bundle, kind: "trade" }, TIPS)).toBeNull();
  });
});
