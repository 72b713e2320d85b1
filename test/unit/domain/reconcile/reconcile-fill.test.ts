/** Issue 22 item 2: which reconciled records get a fill, and the fill request built from the record. */
import { describe, expect, it } from "vitest";
import { fillRequestOfRecord } from "../../../../src/domain/execution/fill.js";

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
