/**
 * Issue 33: GET /v1/positions' answer written from kept row bytes is the object the view gives (every kind of
 * valuation), a row whose columns change gets new bytes (never a stale text), and the page parses as the
 * documented page.
 */
import { describe, expect, it } from "vitest";
import { emptyFigures } from "../../../../src/core/average-cost.js";
import {
  PositionTextCache,
  positionText,
  positionsPageBytes,
} from "../../../../src/domain/positions/page-text.js";
import { EMPTY_VALUATION, positionView, type Valuation } from "../../../../src/domain/positions/view.js";
import type { PositionRecord } from "../../../../src/store/index.js";

const figures = Object.freeze({
  ...emptyFigures(),
  tokensHeld: 3_500_000_000n,
  unknownBasisTokens: 500_000_000n,
  costBasis: 100_005_000n,
  costBasisFees: 2_044_280n,
  boughtTokens: 3_000_000_000n,
  spent: 100_005_000n,
  tradeCount: 1,
});

const record = (over: Partial<PositionRecord> = {}): PositionRecord => ({
  apiKeyId: 1,
  wallet: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
  mint: "So11111111111111111111111111111111111111112",
  status: "open",
  figures,
  decimals: 6,
  openedAt: "2026-11-29T01:02:03.456",
  lastTradeAt: "2026-11-29T01:02:03.456",
  closedAt: null,
  lastExecutionId: "01a2-e",
  updatedAt: "2026-11-29T01:02:03.456",
  ...over,
});

const valuations: Valuation[] = [
  EMPTY_VALUATION,
  {
    source: "cache",
    slot: 1234,
    venue: "bonding_curve",
    liquidationValue: 90_000_000n,
    tokensOnChain: 3_500_000_000n,
  },
  { source: "read", slot: 7, venue: "launchswap", liquidationValue: 0n, tokensOnChain: null },
  {
    source: "none",
    slot: null,
    venue: null,
    liquidationValue: null,
    detail: 'the venue could not be read: "quoted" \\ \u0001 é',
  },
];

describe("positions page text", () => {
  it("a row's text parses to the view, for every kind of valuation, from the cache or not", () => {
    const cache = new PositionTextCache();
    for (const v of valuations)
      for (let i = 0; i < 2; i++)
        expect(JSON.parse(positionText(cache, record(), v))).toEqual(positionView(record(), v));
  });

  it("a row whose columns changed gets its new text", () => {
    const cache = new PositionTextCache();
    const v = valuations[1]!;
    positionText(cache, record(), v);
    const changed: Partial<PositionRecord>[] = [
      { figures: Object.freeze({ ...figures, tokensHeld: 1n }) },
      { status: "closed", closedAt: "2026-11-29T02:00:00.000" },
      { decimals: 9 },
      { lastTradeAt: "2026-11-29T03:00:00.000" },
      { lastExecutionId: "other" },
    ];
    for (const over of changed)
      expect(JSON.parse(positionText(cache, record(over), v))).toEqual(positionView(record(over), v));
  });

  it("the page: rows in order, the limit and the cursor", () => {
    const cache = new PositionTextCache();
    const rows = valuations.map((valuation, i) => ({ record: record({ mint: `M${i}é` }), valuation }));
    const page = JSON.parse(positionsPageBytes(cache, rows, 4, 'cur"sor').toString("utf8")) as unknown;
    expect(page).toEqual({
      positions: rows.map((r) => positionView(r.record, r.valuation)),
      limit: 4,
      next_cursor: 'cur"sor',
    });
    expect(JSON.parse(positionsPageBytes(cache, [], 100, null).toString())).toEqual({
      positions: [],
      limit: 100,
      next_cursor: null,
    });
  });
});
