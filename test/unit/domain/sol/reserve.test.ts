import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  checkFeeBalance,
  checkSolTransferBalance,
  effectiveReserve,
  planConsolidation,
  priorityFeeReserve,
  splitSpendable,
} from "../../../../src/domain/sol/reserve.js";
import { SPEC } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";

describe("priorityFeeReserve", () => {
  it("is base fee per signature plus ceil(price × limit / 1e6)", () => {
    expect(priorityFeeReserve({ cuPriceMicroLamports: 0n, cuLimit: 200_000n, signatures: 1n })).toBe(5_000n);
    expect(priorityFeeReserve({ cuPriceMicroLamports: 1n, cuLimit: 1n, signatures: 2n })).toBe(10_001n);
    expect(priorityFeeReserve({ cuPriceMicroLamports: 100_000n, cuLimit: 200_000n, signatures: 1n })).toBe(
      25_000n,
    );
    expect(priorityFeeReserve({ cuPriceMicroLamports: 3n, cuLimit: 500_000n, signatures: 1n })).toBe(5_002n);
    expect(
      priorityFeeReserve({
        cuPriceMicroLamports: 0n,
        cuLimit: 0n,
        signatures: 3n,
        lamportsPerSignature: 10n,
      }),
    ).toBe(30n);
  });

  it("never undercharges (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 1_400_000n }),
        fc.bigInt({ min: 1n, max: 4n }),
        (price, limit, sigs) => {
          const r = priorityFeeReserve({ cuPriceMicroLamports: price, cuLimit: limit, signatures: sigs });
          const priority = r - 5_000n * sigs;
          expect(priority * 1_000_000n >= price * limit).toBe(true);
          expect((priority - 1n) * 1_000_000n < price * limit || priority === 0n).toBe(true);
        },
      ),
    );
  });
});

describe("effectiveReserve", () => {
  it("adds requested + relay tip + priority fee reserve", () => {
    expect(effectiveReserve({ requested: 5_000n, relayTip: 1_000_000n, priorityFeeReserve: 25_000n })).toBe(
      1_030_000n,
    );
  });
});

describe("planConsolidation", () => {
  it("transfers balance − reserve from each source and totals them", () => {
    const r = planConsolidation(
      [
        { wallet: "A", balanceLamports: 2_000_000n },
        { wallet: "B", balanceLamports: 1_000_001n },
      ],
      1_000_000n,
    );
    expect(r.transfers.map((t) => t.transferLamports)).toEqual([1_000_000n, 1n]);
    expect(r.totalLamports).toBe(1_000_001n);
  });

  it("fails the whole plan on a source that cannot cover the reserve, naming it and the shortfall", () => {
    const d = detailOf(() =>
      planConsolidation(
        [
          { wallet: "A", balanceLamports: 2_000_000n },
          { wallet: "Bwallet", balanceLamports: 999_000n },
        ],
        1_000_000n,
      ),
    );
    expect(d?.startsWith(SPEC.consolidate.lowBalancePrefix)).toBe(true);
    expect(d).toContain("Bwallet");
    expect(d).toContain("short by 1001 lamports");
  });

  it("refuses a source left with nothing to move", () => {
    const d = detailOf(() => planConsolidation([{ wallet: "A", balanceLamports: 10n }], 10n));
    expect(d).toContain("short by 1 lamports");
  });
});

describe("transfer and split balance checks", () => {
  it("SOL transfer must leave the reserve", () => {
    expect(
      detailOf(() => checkSolTransferBalance({ balance: 100n, amount: 90n, reserve: 10n })),
    ).toBeUndefined();
    expect(detailOf(() => checkSolTransferBalance({ balance: 100n, amount: 91n, reserve: 10n }))).toBe(
      SPEC.transfer.lowBalance,
    );
  });

  it("token transfer must cover the reserve in SOL", () => {
    expect(detailOf(() => checkFeeBalance({ balance: 10n, reserve: 10n }))).toBeUndefined();
    expect(detailOf(() => checkFeeBalance({ balance: 9n, reserve: 10n }))).toBe(SPEC.transfer.lowBalance);
  });

  it("split spendable is balance − reserve, at least one lamport", () => {
    expect(splitSpendable({ balance: 11n, reserve: 10n })).toBe(1n);
    expect(detailOf(() => splitSpendable({ balance: 10n, reserve: 10n }))).toBe(SPEC.split.lowBalance);
  });
});

describe("planConsolidation — property", () => {
  it("either every source keeps exactly the reserve and the total is the sum, or the first short source fails", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 50 }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        (balances, reserve) => {
          const sources = balances.map((b, i) => ({ wallet: `w${i}`, balanceLamports: b }));
          const firstShort = sources.find((s) => s.balanceLamports <= reserve);
          const d = detailOf(() => planConsolidation(sources, reserve));
          if (firstShort !== undefined) {
            expect(d?.startsWith(`${SPEC.consolidate.lowBalancePrefix}wallet ${firstShort.wallet} `)).toBe(
              true,
            );
            return;
          }
          const plan = planConsolidation(sources, reserve);
          plan.transfers.forEach((t, i) => expect(t.transferLamports + reserve).toBe(balances[i]));
          expect(plan.totalLamports).toBe(
            balances.reduce((a, b) => a + b, 0n) - reserve * BigInt(balances.length),
          );
        },
      ),
    );
  });
});
