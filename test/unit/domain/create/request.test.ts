import { describe, it, expect } from "vitest";
import { isExternalMetadataUri, parseCreateRequest } from "../../../../src/domain/create/request.js";
import { SPEC, TRADE_RULES, CREATE_RULES } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";

const WALLET = "11111111111111111111111111111112";

const base = {
  name: "Laser",
  symbol: "LSR",
  uri: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
};

describe("parseCreateRequest — defaults and aliases", () => {
  it("applies defaults", () => {
    expect(parseCreateRequest(base)).toEqual({ ...base, mayhemMode: false, cashback: false, confirm: true });
  });

  it("accepts every uri alias, flag alias and the wallet", () => {
    for (const key of ["metadataUrl", "metadataUri"]) {
      const r = parseCreateRequest({
        name: "A",
        symbol: "B",
        [key]: "https://x.io/m.json",
        mayhemMode: true,
      });
      expect(r.uri).toBe("https://x.io/m.json");
      expect(r.mayhemMode).toBe(true);
    }
    const r = parseCreateRequest({
      ...base,
      mayhem_mode: "true",
      cashback: true,
      confirm: false,
      wallet: WALLET,
    });
    expect(r).toMatchObject({ mayhemMode: true, cashback: true, confirm: false, wallet: WALLET });
  });

  it("accepts every initial_buy alias with default slippage 2% = 200 bps", () => {
    for (const key of ["initial_buy", "initialBuy", "buyAmountSol", "devBuy", "dev_buy"]) {
      expect(parseCreateRequest({ ...base, [key]: "0.5" }).initialBuy).toEqual({
        text: "0.5",
        lamports: 500_000_000n,
        slippageBps: 200n,
      });
    }
  });

  it("accepts every slippage alias, to 2 decimals", () => {
    for (const key of ["slippage", "initialBuySlippage", "devBuySlippage", "dev_buy_slippage"]) {
      expect(parseCreateRequest({ ...base, initial_buy: 1, [key]: 12.34 }).initialBuy?.slippageBps).toBe(
        1234n,
      );
    }
    expect(parseCreateRequest({ ...base, initial_buy: 1, slippage: "50" }).initialBuy?.slippageBps).toBe(
      5000n,
    );
  });

  it("accepts JSON numbers in scientific notation for initial_buy", () => {
    expect(parseCreateRequest({ ...base, initial_buy: 1e-9 }).initialBuy).toMatchObject({
      text: "1e-9",
      lamports: 1n,
    });
    expect(parseCreateRequest({ ...base, initial_buy: 2.5e-7 }).initialBuy?.lamports).toBe(250n);
    expect(detailOf(() => parseCreateRequest({ ...base, initial_buy: 1e21 }))).toBe(
      TRADE_RULES.amountTooLarge,
    );
  });
});

describe("parseCreateRequest — spec texts", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["missing name", { symbol: "A", uri: base.uri }, SPEC.create.nameSymbol],
    ["empty name", { ...base, name: "" }, SPEC.create.nameSymbol],
    ["blank symbol", { ...base, symbol: "   " }, SPEC.create.nameSymbol],
    ["non-string name", { ...base, name: 5 }, SPEC.create.nameSymbol],
    ["missing uri", { name: "A", symbol: "B" }, SPEC.create.uriRequired],
    ["empty uri", { ...base, uri: "" }, SPEC.create.uriRequired],
    ["relative uri", { ...base, uri: "/meta.json" }, SPEC.create.uriInvalid],
    ["ftp uri", { ...base, uri: "ftp://x.io/m.json" }, SPEC.create.uriInvalid],
    ["data uri", { ...base, uri: "data:application/json,{}" }, SPEC.create.uriInvalid],
    ["bare ipfs", { ...base, uri: "ipfs://" }, SPEC.create.uriInvalid],
    ["number uri", { ...base, uri: 7 }, SPEC.create.uriInvalid],
    ["zero initial_buy", { ...base, initial_buy: 0 }, SPEC.create.initialBuyZero],
    ["zero string initial_buy", { ...base, initial_buy: "0.000000000" }, SPEC.create.initialBuyZero],
    ["negative initial_buy", { ...base, initial_buy: "-1" }, SPEC.create.initialBuyZero],
    ["10 decimals", { ...base, initial_buy: "0.0000000001" }, SPEC.create.initialBuyDecimals],
    ["sci 10 decimals", { ...base, devBuy: 1e-10 }, SPEC.create.initialBuyDecimals],
    ["slippage without buy", { ...base, slippage: 5 }, SPEC.create.slippageWithoutBuy],
    ["alias slippage without buy", { ...base, devBuySlippage: 5 }, SPEC.create.slippageWithoutBuy],
    ["name too long", { ...base, name: "x".repeat(33) }, CREATE_RULES.nameTooLong],
    ["symbol too long", { ...base, symbol: "x".repeat(14) }, CREATE_RULES.symbolTooLong],
    ["symbol too long in bytes", { ...base, symbol: "é".repeat(7) }, CREATE_RULES.symbolTooLong],
    ["uri too long", { ...base, uri: `https://x.io/${"a".repeat(190)}` }, CREATE_RULES.uriTooLong],
    ["initial_buy text", { ...base, initial_buy: "abc" }, CREATE_RULES.initialBuyInvalid],
    ["initial_buy type", { ...base, initial_buy: true }, CREATE_RULES.initialBuyInvalid],
    ["zero slippage", { ...base, initial_buy: 1, slippage: 0 }, TRADE_RULES.slippagePositiveRange],
    ["slippage over 50", { ...base, initial_buy: 1, slippage: 50.01 }, TRADE_RULES.slippagePositiveRange],
    ["slippage 3 decimals", { ...base, initial_buy: 1, slippage: "1.234" }, TRADE_RULES.slippageDecimals],
    ["bad wallet", { ...base, wallet: "nope" }, TRADE_RULES.walletInvalid],
    ["bad confirm", { ...base, confirm: "yes" }, TRADE_RULES.confirmBoolean],
    ["bad mayhem", { ...base, mayhem_mode: 1 }, CREATE_RULES.mayhemBoolean],
    ["bad cashback", { ...base, cashback: "no" }, CREATE_RULES.cashbackBoolean],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseCreateRequest(body))).toBe(text));
  }

  it("limits are inclusive", () => {
    const r = parseCreateRequest({
      name: "n".repeat(32),
      symbol: "s".repeat(13),
      uri: `https://x.io/${"a".repeat(187)}`,
    });
    expect(r.uri.length).toBe(200);
  });
});

describe("isExternalMetadataUri", () => {
  it("accepts absolute ipfs, https, http only", () => {
    expect(isExternalMetadataUri("ipfs://Qm123")).toBe(true);
    expect(isExternalMetadataUri("https://a.b/c.json")).toBe(true);
    expect(isExternalMetadataUri("http://127.0.0.1:8080/m")).toBe(true);
    expect(isExternalMetadataUri("https://")).toBe(false);
    expect(isExternalMetadataUri("https://a b")).toBe(false);
    expect(isExternalMetadataUri("ws://a.b")).toBe(false);
  });
});
