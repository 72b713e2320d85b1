/** Issue 30: the effective reserve term by term (spec 4.8: fee reserve + relay tip + priority-fee reserve). */
import { describe, expect, it } from "vitest";
import {
  reserveBreakdownBody,
  reserveBreakdownText,
  transactionReserve,
  transactionReserveBreakdown,
} from "../../../../src/domain/sol/reserve.js";

const budget = { maxUnitLimit: 1_400n, priceMicroLamports: 1_000_000n };

describe("transactionReserveBreakdown", () => {
  it("a small request is raised to the rent-exempt minimum; the terms add up to the reserve", () => {
    const b = transactionReserveBreakdown({ requested: 5_000n, relayTip: 1_000n, budget });
    expect(reserveBreakdownBody(b)).toEqual({
      requested_lamports: "5000",
      rent_exempt_minimum_lamports: "890880",
      fee_reserve_lamports: "890880",
      relay_tip_lamports: "1000",
      signature_fee_lamports: "5000",
      priority_fee_lamports: "1400",
      priority_fee_reserve_lamports: "6400",
      total_lamports: "898280",
    });
    expect(b.totalLamports).toBe(transactionReserve({ requested: 5_000n, relayTip: 1_000n, budget }));
    expect(reserveBreakdownText(b)).toBe(
      "effective reserve 898280 lamports = fee reserve 890880 (fee_reserve_lamports 5000 raised to the " +
        "rent-exempt minimum of a system account) + relay tip 1000 + priority-fee reserve 6400 " +
        "(signature fee 5000 + priority fee 1400)",
    );
  });

  it("a request above the minimum is kept as asked", () => {
    const b = transactionReserveBreakdown({ requested: 2_000_000n, relayTip: 0n, budget });
    expect(b.feeReserveLamports).toBe(2_000_000n);
    expect(reserveBreakdownText(b)).toBe(
      "effective reserve 2006400 lamports = fee reserve 2000000 + relay tip 0 + priority-fee reserve 6400 " +
        "(signature fee 5000 + priority fee 1400)",
    );
  });
});
