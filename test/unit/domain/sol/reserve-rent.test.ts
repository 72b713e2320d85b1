import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { ApiError, SOL_RULES } from "../../../../src/core/errors.js";
import {
  checkNewAccountFunding,
  effectiveReserve,
  priorityFeeReserve,
  rentExemptMinimum,
  SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM,
  transactionReserve,
} from "../../../../src/domain/sol/reserve.js";

describe("rentExemptMinimum", () => {
  it("matches the runtime's figures for a system account and token accounts", () => {
    expect(SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM).toBe(890_880n);
    expect(rentExemptMinimum(165)).toBe(2_039_280n);
    expect(rentExemptMinimum(170)).toBe(2_074_080n);
  });
});

describe("transactionReserve", () => {
  const budget = { maxUnitLimit: 30_000n, priceMicroLamports: 10_000n };

  it("is requested + tip + priority-fee reserve for the budget the transaction carries", () => {
    expect(transactionReserve({ requested: 2_000_000n, relayTip: 200_000n, budget })).toBe(
      2_000_000n + 200_000n + 5_000n + 300n,
    );
  });

  it("raises a requested reserve below the rent-exempt minimum to it (a payer left below rent fails)", () => {
    expect(transactionReserve({ requested: 5_000n, relayTip: 200_000n, budget })).toBe(
      890_880n + 200_000n + 5_000n + 300n,
    );
  });

  it("never leaves the payer below rent once the fee and tip are paid (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        fc.bigInt({ min: 1n, max: 1_400_000n }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        fc.bigInt({ min: 0n, max: 1_400_000n }),
        (requested, tip, limit, price, used) => {
          const reserve = transactionReserve({
            requested,
            relayTip: tip,
            budget: { maxUnitLimit: limit, priceMicroLamports: price },
          });
          // The limit actually signed is at most the budget's maximum.
          const signedLimit = used > limit ? limit : used;
          const fee = priorityFeeReserve({
            cuPriceMicroLamports: price,
            cuLimit: signedLimit,
            signatures: 1n,
          });
          const left = reserve - tip - fee;
          expect(left >= SYSTEM_ACCOUNT_RENT_EXEMPT_MINIMUM).toBe(true);
          expect(left >= requested).toBe(true);
          expect(reserve).toBe(
            effectiveReserve({
              requested: requested > 890_880n ? requested : 890_880n,
              relayTip: tip,
              priorityFeeReserve: priorityFeeReserve({
                cuPriceMicroLamports: price,
                cuLimit: limit,
                signatures: 1n,
              }),
            }),
          );
        },
      ),
    );
  });
});

describe("checkNewAccountFunding", () => {
  const detail = SOL_RULES.newAccountRent;
  it("refuses to create an account below rent and accepts existing accounts at any amount", () => {
    expect(() => checkNewAccountFunding({ exists: false, lamports: 890_879n, detail })).toThrow(ApiError);
    expect(() => checkNewAccountFunding({ exists: false, lamports: 890_880n, detail })).not.toThrow();
    expect(() => checkNewAccountFunding({ exists: true, lamports: 1n, detail })).not.toThrow();
    try {
      checkNewAccountFunding({ exists: false, lamports: 1n, detail });
    } catch (e) {
      expect(e).toMatchObject({ status: 400, detail });
    }
  });
});
