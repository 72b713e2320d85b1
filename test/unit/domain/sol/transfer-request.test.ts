import { describe, it, expect } from "vitest";
import { checkTransferEnds, parseTransferRequest } from "../../../../src/domain/sol/transfer-request.js";
import { SPEC, TRADE_RULES } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

describe("parseTransferRequest", () => {
  it("native SOL by default, with mint omitted or SOL", () => {
    for (const mint of [undefined, null, "SOL", "sol"]) {
      const r = parseTransferRequest({ destination_wallet: addr(1), amount: "1.000000001", mint });
      expect(r.asset).toEqual({ kind: "sol", lamports: 1_000_000_001n });
      expect(r.amountText).toBe("1.000000001");
      expect(r.feeReserveLamports).toBe(5_000n);
      expect(r.confirm).toBe(true);
      expect(r.source).toBeUndefined();
    }
  });

  it("token units for a mint", () => {
    const r = parseTransferRequest({
      destination_wallet: addr(1),
      source_wallet: addr(2),
      mint: addr(3),
      amount: "123456789012345",
      fee_reserve_lamports: 10_000,
      confirm: "false",
    });
    expect(r).toEqual({
      destination: addr(1),
      source: addr(2),
      asset: { kind: "token", mint: addr(3), units: 123_456_789_012_345n },
      amountText: "123456789012345",
      feeReserveLamports: 10_000n,
      confirm: false,
    });
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["missing destination", { amount: 1 }, SPEC.transfer.invalidDestination],
    ["bad destination", { destination_wallet: "0OIl", amount: 1 }, SPEC.transfer.invalidDestination],
    [
      "same as source",
      { destination_wallet: addr(1), source_wallet: addr(1), amount: 1 },
      SPEC.transfer.destinationIsSource,
    ],
    ["bad source", { destination_wallet: addr(1), source_wallet: "x", amount: 1 }, TRADE_RULES.walletInvalid],
    ["bad mint", { destination_wallet: addr(1), mint: "USDC", amount: 1 }, SPEC.transfer.invalidMint],
    ["missing amount", { destination_wallet: addr(1) }, TRADE_RULES.amountRequired],
    ["amount type", { destination_wallet: addr(1), amount: [1] }, SPEC.trade.amountType],
    ["SOL 10 decimals", { destination_wallet: addr(1), amount: "0.0000000001" }, SPEC.trade.solDecimals],
    ["SOL zero", { destination_wallet: addr(1), amount: 0 }, TRADE_RULES.amountPositive],
    ["token zero", { destination_wallet: addr(1), mint: addr(3), amount: "0" }, SPEC.transfer.tokenAmount],
    [
      "token fraction",
      { destination_wallet: addr(1), mint: addr(3), amount: "1.5" },
      SPEC.transfer.tokenAmount,
    ],
    ["token negative", { destination_wallet: addr(1), mint: addr(3), amount: -4 }, SPEC.transfer.tokenAmount],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseTransferRequest(body))).toBe(text));
  }

  it("checkTransferEnds refuses a resolved default wallet equal to the destination", () => {
    expect(detailOf(() => checkTransferEnds(addr(4), addr(4)))).toBe(SPEC.transfer.destinationIsSource);
    expect(detailOf(() => checkTransferEnds(addr(4), addr(5)))).toBeUndefined();
  });
});
