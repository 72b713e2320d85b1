import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { allocateSplit, type SplitDestination } from "../../../../src/domain/sol/split-allocation.js";
import { ApiError, SPEC } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";

const W = ["w1", "w2", "w3", "w4", "w5", "w6"];

describe("allocateSplit — spec examples", () => {
  it("splits 100% equally with dust to the earliest equal entries", () => {
    const r = allocateSplit({
      spendable: 10n,
      totalPercentHundredths: 10_000n,
      destinations: [
        { wallet: "a", mode: "equal" },
        { wallet: "b", mode: "equal" },
        { wallet: "c", mode: "equal" },
      ],
    });
    expect(r.transferTotal).toBe(10n);
    expect(r.transfers.map((t) => t.lamports)).toEqual([4n, 3n, 3n]);
  });

  it("applies fixed, then percent of the selected total, then equal remainder, keeping request order", () => {
    const r = allocateSplit({
      spendable: 2_000_000_001n,
      totalPercentHundredths: 5_000n, // 50% → 1_000_000_000
      destinations: [
        { wallet: "eq1", mode: "equal" },
        { wallet: "pct", mode: "percent", hundredths: 2_550n }, // 25.5% → 255_000_000
        { wallet: "fix", mode: "fixed", lamports: 100_000_000n },
        { wallet: "eq2", mode: "equal" },
      ],
    });
    expect(r.transferTotal).toBe(1_000_000_000n);
    expect(r.transfers).toEqual([
      { wallet: "eq1", lamports: 322_500_000n, mode: "equal" },
      { wallet: "pct", lamports: 255_000_000n, mode: "percent" },
      { wallet: "fix", lamports: 100_000_000n, mode: "fixed" },
      { wallet: "eq2", lamports: 322_500_000n, mode: "equal" },
    ]);
  });

  it("rounds the selected total down", () => {
    const r = allocateSplit({
      spendable: 999n,
      totalPercentHundredths: 3_333n,
      destinations: [{ wallet: "a", mode: "equal" }],
    });
    expect(r.transferTotal).toBe(332n); // floor(999 × 0.3333) = 332
    expect(r.transfers[0]?.lamports).toBe(332n);
  });

  it("a single 100% percent entry takes everything", () => {
    const r = allocateSplit({
      spendable: 12_345n,
      totalPercentHundredths: 10_000n,
      destinations: [{ wallet: "a", mode: "percent", hundredths: 10_000n }],
    });
    expect(r.transfers[0]?.lamports).toBe(12_345n);
  });
});

describe("allocateSplit — every error text", () => {
  const eq = (wallet: string): SplitDestination => ({ wallet, mode: "equal" });

  it("destinations count", () => {
    expect(
      detailOf(() => allocateSplit({ spendable: 10n, totalPercentHundredths: 10_000n, destinations: [] })),
    ).toBe(SPEC.split.destinationsCount);
    expect(
      detailOf(() =>
        allocateSplit({ spendable: 10n, totalPercentHundredths: 10_000n, destinations: W.map(eq) }),
      ),
    ).toBe(SPEC.split.destinationsCount);
  });

  it("total_percent out of (0, 100]", () => {
    for (const p of [0n, -1n, 10_001n]) {
      expect(
        detailOf(() => allocateSplit({ spendable: 10n, totalPercentHundredths: p, destinations: [eq("a")] })),
      ).toBe(SPEC.split.totalPercent);
    }
  });

  it("rules that need no balance come before the balance check", () => {
    const over: SplitDestination[] = [
      { wallet: "a", mode: "percent", hundredths: 6_000n },
      { wallet: "b", mode: "percent", hundredths: 4_001n },
    ];
    expect(
      detailOf(() => allocateSplit({ spendable: 0n, totalPercentHundredths: 10_000n, destinations: over })),
    ).toBe(SPEC.split.percentOver);
    expect(
      detailOf(() => allocateSplit({ spendable: 0n, totalPercentHundredths: 0n, destinations: over })),
    ).toBe(SPEC.split.totalPercent);
  });

  it("nothing spendable", () => {
    for (const s of [0n, -5n]) {
      expect(
        detailOf(() =>
          allocateSplit({ spendable: s, totalPercentHundredths: 10_000n, destinations: [eq("a")] }),
        ),
      ).toBe(SPEC.split.lowBalance);
    }
  });

  it("percentages over 100", () => {
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 1_000n,
          totalPercentHundredths: 10_000n,
          destinations: [
            { wallet: "a", mode: "percent", hundredths: 6_000n },
            { wallet: "b", mode: "percent", hundredths: 4_001n },
          ],
        }),
      ),
    ).toBe(SPEC.split.percentOver);
  });

  it("fixed plus percent over the selected total", () => {
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 1_000n,
          totalPercentHundredths: 5_000n,
          destinations: [
            { wallet: "a", mode: "fixed", lamports: 300n },
            { wallet: "b", mode: "percent", hundredths: 5_000n },
          ],
        }),
      ),
    ).toBe(SPEC.split.amountsExceed);
  });

  it("remainder with no equal entry", () => {
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 1_000n,
          totalPercentHundredths: 10_000n,
          destinations: [{ wallet: "a", mode: "fixed", lamports: 999n }],
        }),
      ),
    ).toBe(SPEC.split.notConsumed);
    // 50% + 50% of an odd total leaves one lamport nobody may take.
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 1_001n,
          totalPercentHundredths: 10_000n,
          destinations: [
            { wallet: "a", mode: "percent", hundredths: 5_000n },
            { wallet: "b", mode: "percent", hundredths: 5_000n },
          ],
        }),
      ),
    ).toBe(SPEC.split.notConsumed);
  });

  it("a destination rounding to zero", () => {
    // equal entries with nothing left
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 1_000n,
          totalPercentHundredths: 10_000n,
          destinations: [{ wallet: "a", mode: "fixed", lamports: 1_000n }, eq("b")],
        }),
      ),
    ).toBe(SPEC.split.minLamport);
    // more equal entries than lamports
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 2n,
          totalPercentHundredths: 10_000n,
          destinations: [eq("a"), eq("b"), eq("c")],
        }),
      ),
    ).toBe(SPEC.split.minLamport);
    // a percent entry flooring to zero
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 50n,
          totalPercentHundredths: 10_000n,
          destinations: [{ wallet: "a", mode: "percent", hundredths: 1n }, eq("b")],
        }),
      ),
    ).toBe(SPEC.split.minLamport);
    // a fixed zero
    expect(
      detailOf(() =>
        allocateSplit({
          spendable: 50n,
          totalPercentHundredths: 10_000n,
          destinations: [{ wallet: "a", mode: "fixed", lamports: 0n }, eq("b")],
        }),
      ),
    ).toBe(SPEC.split.minLamport);
  });
});

const destinationArb: fc.Arbitrary<Omit<SplitDestination, "wallet">> = fc.oneof(
  fc.record({ mode: fc.constant("equal" as const) }),
  fc.record({ mode: fc.constant("fixed" as const), lamports: fc.bigInt({ min: 0n, max: 5_000_000_000n }) }),
  fc.record({ mode: fc.constant("percent" as const), hundredths: fc.bigInt({ min: 0n, max: 10_000n }) }),
);

const inputArb = fc.record({
  spendable: fc.oneof(fc.bigInt({ min: 1n, max: 100n }), fc.bigInt({ min: 1n, max: 50_000_000_000_000n })),
  totalPercentHundredths: fc.bigInt({ min: 1n, max: 10_000n }),
  destinations: fc
    .array(destinationArb, { minLength: 1, maxLength: 5 })
    .map((ds) => ds.map((d, i) => ({ ...d, wallet: `w${i}` }) as SplitDestination)),
});

describe("allocateSplit — properties", () => {
  it("on success, transfers sum to the selected total, each ≥ 1, fixed and percent exact, equal within 1", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        let r;
        try {
          r = allocateSplit(input);
        } catch (e) {
          if (e instanceof ApiError && e.status === 400) return;
          throw e;
        }
        expect(r.transferTotal).toBe((input.spendable * input.totalPercentHundredths) / 10_000n);
        expect(r.transfers.reduce((a, t) => a + t.lamports, 0n)).toBe(r.transferTotal);
        expect(r.transfers.map((t) => t.wallet)).toEqual(input.destinations.map((d) => d.wallet));
        const equals: bigint[] = [];
        r.transfers.forEach((t, i) => {
          const d = input.destinations[i]!;
          expect(t.mode).toBe(d.mode);
          expect(t.lamports >= 1n).toBe(true);
          if (d.mode === "fixed") expect(t.lamports).toBe(d.lamports);
          if (d.mode === "percent") expect(t.lamports).toBe((r.transferTotal * d.hundredths) / 10_000n);
          if (d.mode === "equal") equals.push(t.lamports);
        });
        // dust order: equal shares never increase along the request order and differ by at most 1
        for (let k = 1; k < equals.length; k++) {
          expect(equals[k - 1]! - equals[k]!).toBeGreaterThanOrEqual(0n);
          expect(equals[0]! - equals[k]!).toBeLessThanOrEqual(1n);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("fails exactly when a rule is broken, with that rule's text, in the spec's order", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const total = (input.spendable * input.totalPercentHundredths) / 10_000n;
        const ds = input.destinations;
        const pctSum = ds.reduce((a, d) => a + (d.mode === "percent" ? d.hundredths : 0n), 0n);
        const fixedAndPct = ds.reduce(
          (a, d) =>
            a +
            (d.mode === "fixed" ? d.lamports : d.mode === "percent" ? (total * d.hundredths) / 10_000n : 0n),
          0n,
        );
        const eqCount = BigInt(ds.filter((d) => d.mode === "equal").length);
        let expected: string | undefined;
        if (pctSum > 10_000n) expected = SPEC.split.percentOver;
        else if (fixedAndPct > total) expected = SPEC.split.amountsExceed;
        else if (eqCount === 0n && fixedAndPct !== total) expected = SPEC.split.notConsumed;
        else {
          const zeroFixedOrPct = ds.some(
            (d) =>
              (d.mode === "fixed" && d.lamports === 0n) ||
              (d.mode === "percent" && (total * d.hundredths) / 10_000n === 0n),
          );
          if (zeroFixedOrPct || (eqCount > 0n && total - fixedAndPct < eqCount))
            expected = SPEC.split.minLamport;
        }
        expect(detailOf(() => allocateSplit(input))).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});
