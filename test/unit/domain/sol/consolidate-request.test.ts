import { describe, it, expect } from "vitest";
import {
  defaultConsolidationSources,
  parseConsolidateRequest,
} from "../../../../src/domain/sol/consolidate-request.js";
import { SPEC, TRADE_RULES, SOL_RULES } from "../../../../src/core/errors.js";
import { apiErrorOf, detailOf } from "../../../helpers/expect.js";
import { addr } from "../../../helpers/fixtures.js";

describe("parseConsolidateRequest", () => {
  it("defaults: all sources, reserve 5000, confirm true", () => {
    expect(parseConsolidateRequest({ destination_wallet: addr(1) })).toEqual({
      destination: addr(1),
      feeReserveLamports: 5_000n,
      confirm: true,
    });
  });

  it("keeps an explicit source list, reserve and confirm", () => {
    const r = parseConsolidateRequest({
      destination_wallet: addr(1),
      source_wallets: [addr(2), addr(3)],
      fee_reserve_lamports: "0",
      confirm: false,
    });
    expect(r).toEqual({
      destination: addr(1),
      sources: [addr(2), addr(3)],
      feeReserveLamports: 0n,
      confirm: false,
    });
  });

  it("accepts 50 sources", () => {
    const sources = Array.from({ length: 50 }, (_, i) => addr(i + 2));
    expect(
      parseConsolidateRequest({ destination_wallet: addr(1), source_wallets: sources }).sources,
    ).toHaveLength(50);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["missing destination", {}, SPEC.consolidate.invalidDestination],
    ["bad destination", { destination_wallet: "xyz" }, SPEC.consolidate.invalidDestination],
    ["empty sources", { destination_wallet: addr(1), source_wallets: [] }, SPEC.consolidate.sourcesCount],
    [
      "51 sources",
      { destination_wallet: addr(1), source_wallets: Array.from({ length: 51 }, (_, i) => addr(i + 2)) },
      SPEC.consolidate.sourcesCount,
    ],
    [
      "sources not array",
      { destination_wallet: addr(1), source_wallets: addr(2) },
      SPEC.consolidate.sourcesCount,
    ],
    ["bad source", { destination_wallet: addr(1), source_wallets: ["bad"] }, SOL_RULES.sourceInvalid],
    [
      "duplicate",
      { destination_wallet: addr(1), source_wallets: [addr(2), addr(2)] },
      SPEC.consolidate.sourcesUnique,
    ],
    [
      "destination in sources",
      { destination_wallet: addr(1), source_wallets: [addr(2), addr(1)] },
      SPEC.consolidate.destinationIsSource,
    ],
    ["negative reserve", { destination_wallet: addr(1), fee_reserve_lamports: -1 }, SOL_RULES.feeReserve],
    ["fractional reserve", { destination_wallet: addr(1), fee_reserve_lamports: 1.5 }, SOL_RULES.feeReserve],
    ["text reserve", { destination_wallet: addr(1), fee_reserve_lamports: "5k" }, SOL_RULES.feeReserve],
    ["bad confirm", { destination_wallet: addr(1), confirm: 1 }, TRADE_RULES.confirmBoolean],
  ];
  for (const [label, body, text] of cases) {
    it(label, () => expect(detailOf(() => parseConsolidateRequest(body))).toBe(text));
  }
});

describe("defaultConsolidationSources", () => {
  it("drops the destination", () => {
    expect(defaultConsolidationSources([addr(1), addr(2), addr(3)], addr(2))).toEqual([addr(1), addr(3)]);
  });
  it("404s when nothing is left", () => {
    const e = apiErrorOf(() => defaultConsolidationSources([addr(1)], addr(1)));
    expect(e?.status).toBe(404);
    expect(e?.detail).toBe(SPEC.consolidate.noSources);
    expect(apiErrorOf(() => defaultConsolidationSources([], addr(1)))?.status).toBe(404);
  });
});
