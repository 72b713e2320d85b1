import { describe, it, expect } from "vitest";
import { checkSplitDestinations, parseSplitRequest } from "../../../../src/domain/sol/split-request.js";
import { SPEC, TRADE_RULES, SOL_RULES } from "../../../../src/core/errors.js";
import { detailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

describe("parseSplitRequest", () => {
  it("parses the three entry modes and defaults", () => {
    const r = parseSplitRequest({
      destinations: [
        { wallet: addr(1), sol: "0.5" },
        { wallet: addr(2), percent: 12.5 },
        { wallet: addr(3) },
        { wallet: addr(4), sol: null, percent: null },
      ],
    });
    expect(r).toEqual({
      totalPercentHundredths: 10_000n,
      destinations: [
        { wallet: addr(1), mode: "fixed", lamports: 500_000_000n },
        { wallet: addr(2), mode: "percent", hundredths: 1_250n },
        { wallet: addr(3), mode: "equal" },
        { wallet: addr(4), mode: "equal" },
      ],
      feeReserveLamports: 5_000n,
      confirm: true,
    });
  });

  it("total_percent accepts (0, 100] to 2 decimals", () => {
    const one = [{ wallet: addr(1) }];
    expect(parseSplitRequest({ destinations: one, total_percent: "0.01" }).totalPercentHundredths).toBe(1n);
    expect(parseSplitRequest({ destinations: one, total_percent: 100 }).totalPercentHundredths).toBe(10_000n);
    expect(parseSplitRequest({ destinations: one, total_percent: "33.33%" }).totalPercentHundredths).toBe(
      3_333n,
    );
  });

  const one = [{ wallet: addr(1) }];
  const cases: [string, Record<string, unknown>, string][] = [
    ["no destinations", {}, SPEC.split.destinationsCount],
    ["empty destinations", { destinations: [] }, SPEC.split.destinationsCount],
    [
      "six destinations",
      { destinations: [1, 2, 3, 4, 5, 6].map((n) => ({ wallet: addr(n) })) },
      SPEC.split.destinationsCount,
    ],
    ["both modes", { destinations: [{ wallet: addr(1), sol: 1, percent: 5 }] }, SPEC.split.percentOrSol],
    ["destination is source", { source_wallet: addr(1), destinations: one }, SPEC.split.destinationIsSource],
    [
      "duplicate",
      { destinations: [{ wallet: addr(1) }, { wallet: addr(1), sol: 1 }] },
      SPEC.split.destinationsUnique,
    ],
    ["total 0", { destinations: one, total_percent: 0 }, SPEC.split.totalPercent],
    ["total over 100", { destinations: one, total_percent: "100.01" }, SPEC.split.totalPercent],
    ["total text", { destinations: one, total_percent: "all" }, SPEC.split.totalPercent],
    ["total type", { destinations: one, total_percent: true }, SPEC.split.totalPercent],
    ["total decimals", { destinations: one, total_percent: "50.005" }, SOL_RULES.totalPercentDecimals],
    ["percent over 100", { destinations: [{ wallet: addr(1), percent: 101 }] }, SPEC.split.percentOver],
    [
      "percent sum over 100",
      {
        destinations: [
          { wallet: addr(1), percent: "60" },
          { wallet: addr(2), percent: 40.01 },
        ],
      },
      SPEC.split.percentOver,
    ],
    [
      "percent zero",
      { destinations: [{ wallet: addr(1), percent: 0 }] },
      SOL_RULES.destinationPercentInvalid,
    ],
    [
      "percent decimals",
      { destinations: [{ wallet: addr(1), percent: "1.001" }] },
      SOL_RULES.destinationPercentDecimals,
    ],
    ["sol zero", { destinations: [{ wallet: addr(1), sol: "0" }] }, SPEC.split.minLamport],
    ["sol decimals", { destinations: [{ wallet: addr(1), sol: "1e-10" }] }, SPEC.trade.solDecimals],
    ["sol text", { destinations: [{ wallet: addr(1), sol: "one" }] }, SOL_RULES.destinationSolInvalid],
    ["entry not object", { destinations: [addr(1)] }, SOL_RULES.destinationObject],
    ["entry without wallet", { destinations: [{ sol: 1 }] }, SOL_RULES.destinationObject],
    ["bad wallet", { destinations: [{ wallet: "bad" }] }, SPEC.consolidate.invalidDestination],
    ["bad source", { source_wallet: "bad", destinations: one }, TRADE_RULES.walletInvalid],
    ["bad reserve", { destinations: one, fee_reserve_lamports: "-1" }, SOL_RULES.feeReserve],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseSplitRequest(body))).toBe(text));
  }

  it("checkSplitDestinations applies to a resolved default source", () => {
    const r = parseSplitRequest({ destinations: [{ wallet: addr(1) }, { wallet: addr(2) }] });
    expect(detailOf(() => checkSplitDestinations(addr(2), r.destinations))).toBe(
      SPEC.split.destinationIsSource,
    );
    expect(detailOf(() => checkSplitDestinations(addr(3), r.destinations))).toBeUndefined();
  });
});
