/**
 * Issue 30: whole-token amounts (`amount_tokens: "1.5"`) for sells and token transfers beside the spec's atomic
 * `amount`: converted with the mint's decimals, both given → 400, and texts that say which unit is expected.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { parseTokenUnits, parseWholeTokens } from "../../../src/core/amounts.js";
import { ApiError, SPEC, TRADE_RULES } from "../../../src/core/errors.js";
import { parseTransferRequest } from "../../../src/domain/sol/transfer-request.js";
import { parseTradeRequest } from "../../../src/domain/trade/request.js";

const mint = Keypair.generate().publicKey.toBase58();
const to = Keypair.generate().publicKey.toBase58();

function detailOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as ApiError).detail;
  }
}

describe("parseWholeTokens", () => {
  it("scales by the mint's decimals and refuses what the mint cannot hold", () => {
    expect(parseWholeTokens("1.5", 6)).toBe(1_500_000n);
    expect(parseWholeTokens(2, 9)).toBe(2_000_000_000n);
    expect(parseWholeTokens("0.000001", 6)).toBe(1n);
    expect(detailOf(() => parseWholeTokens("0.0000001", 6))).toBe(TRADE_RULES.amountTokensDecimals(6));
    expect(detailOf(() => parseWholeTokens("0", 6))).toBe(TRADE_RULES.amountTokensPositive);
    expect(detailOf(() => parseWholeTokens("abc", 6))).toBe(TRADE_RULES.amountTokensInvalid);
    expect(detailOf(() => parseWholeTokens(true, 6))).toBe(TRADE_RULES.amountTokensInvalid);
    expect(detailOf(() => parseWholeTokens("99999999999999999999", 6))).toBe(TRADE_RULES.amountTooLarge);
  });

  it("says which unit a token amount is in", () => {
    expect(TRADE_RULES.sellTokenUnits).toContain("atomic units");
    expect(TRADE_RULES.sellTokenUnits).toContain("amount_tokens");
    const sell = { action: "sell", mint };
    expect(detailOf(() => parseTradeRequest({ ...sell, amount: "1.5" }))).toBe(TRADE_RULES.sellTokenUnits);
    try {
      parseTokenUnits("1.5", SPEC.transfer.tokenAmount, { expected_unit: TRADE_RULES.atomicUnitsHint });
    } catch (e) {
      expect((e as ApiError).detail).toBe(SPEC.transfer.tokenAmount);
      expect((e as ApiError).extra).toEqual({ expected_unit: TRADE_RULES.atomicUnitsHint });
    }
  });
});

describe("amount_tokens on a trade", () => {
  it("is a sell's whole-token amount, resolved later with the mint's decimals", () => {
    const intent = parseTradeRequest({ action: "sell", mint, amount_tokens: "1.5" });
    expect(intent.amount).toEqual({ kind: "wholeTokens", text: "1.5" });
    expect(intent.denominatedInSol).toBe(false);
  });

  it("is refused with amount, on a buy, when malformed, and a sell needs one of the two", () => {
    const sell = { action: "sell", mint };
    expect(detailOf(() => parseTradeRequest({ ...sell, amount: "1", amount_tokens: "1" }))).toBe(
      TRADE_RULES.amountAndTokens,
    );
    expect(detailOf(() => parseTradeRequest({ action: "buy", mint, amount_tokens: "1" }))).toBe(
      TRADE_RULES.amountTokensOnBuy,
    );
    expect(detailOf(() => parseTradeRequest({ ...sell, amount_tokens: "50%" }))).toBe(
      TRADE_RULES.amountTokensInvalid,
    );
    expect(detailOf(() => parseTradeRequest({ ...sell, amount_tokens: "1", denominated_in_sol: true }))).toBe(
      SPEC.trade.sellInSol,
    );
    expect(detailOf(() => parseTradeRequest(sell))).toBe(TRADE_RULES.amountRequired);
  });
});

describe("amount_tokens on a transfer", () => {
  it("is a token transfer's whole-token amount; refused for SOL and beside amount", () => {
    const req = parseTransferRequest({ destination_wallet: to, mint, amount_tokens: "2.25" });
    expect(req.asset).toEqual({ kind: "token", mint, wholeTokens: "2.25" });
    expect(detailOf(() => parseTransferRequest({ destination_wallet: to, amount_tokens: "1" }))).toBe(
      TRADE_RULES.amountTokensOnSol,
    );
    expect(
      detailOf(() => parseTransferRequest({ destination_wallet: to, mint, amount: "1", amount_tokens: "1" })),
    ).toBe(TRADE_RULES.amountAndTokens);
    // The spec's atomic amount is unchanged.
    expect(parseTransferRequest({ destination_wallet: to, mint, amount: "15" }).asset).toEqual({
      kind: "token",
      mint,
      units: 15n,
    });
  });
});
