/** Issue 33: the position view (amounts as text, valuation) and the position.updated event's payload. */
import { describe, expect, it } from "vitest";
import { applyFill, emptyFigures } from "../../../../src/core/average-cost.js";
import { eventView, EVENT_TYPES, parseEventTypes } from "../../../../src/domain/events/query.js";
import { positionView } from "../../../../src/domain/positions/view.js";
import { positionEventData } from "../../../../src/store/positions/apply-fill.js";
import type { EventRecord, PositionRecord } from "../../../../src/store/index.js";

const figures = applyFill(emptyFigures(), {
  side: "buy",
  solChange: -1_000_005_000n,
  fee: 5000n,
  tip: 0n,
  rent: 0n,
  tokenChange: 2_000_000n,
  balanceAfter: 2_000_000n,
}).figures;
const record: PositionRecord = {
  apiKeyId: 1,
  wallet: "W",
  mint: "M",
  status: "open",
  figures,
  decimals: 6,
  openedAt: "2026-11-28T10:00:00.000",
  lastTradeAt: "2026-11-28T10:00:00.000",
  closedAt: null,
  lastExecutionId: "e1",
  updatedAt: "2026-11-28T10:00:01.000",
};

describe("position view", () => {
  it("shows every amount as text, the average per whole token, and unrealized PnL against the value", () => {
    const v = positionView(record, {
      source: "cache",
      slot: 7,
      venue: "bonding_curve",
      liquidationValue: 900_000_000n,
    });
    expect(v).toMatchObject({
      tokens_held: "2000000",
      cost_basis_lamports: "1000005000",
      cost_basis_fee_lamports: "5000",
      average_entry_price_lamports: "500002500.000000",
      liquidation_value_lamports: "900000000",
      unrealized_pnl_lamports: "-100005000",
      valuation: { source: "cache", slot: 7, venue: "bonding_curve" },
      opened_at: "2026-11-28T10:00:00.000Z",
      closed_at: null,
    });
    const none = positionView(record, {
      source: "none",
      slot: null,
      venue: null,
      liquidationValue: null,
      detail: "x",
    });
    expect(none.unrealized_pnl_lamports).toBeNull();
    expect(none.valuation.detail).toBe("x");
  });

  it("a position.updated event carries the position as stored with the fill, not valued", () => {
    expect(EVENT_TYPES).toContain("position.updated");
    expect(parseEventTypes("position.updated,execution.confirmed")).toEqual([
      "position.updated",
      "execution.confirmed",
    ]);
    const stored: EventRecord = {
      id: 3,
      apiKeyId: 1,
      type: "position.updated",
      executionId: "e1",
      kind: "trade",
      wallet: "W",
      wallets: ["W"],
      signatures: [],
      status: "open" as never,
      error: null,
      createdAt: "2026-11-28T10:00:01.000",
      data: JSON.parse(positionEventData(record)) as unknown,
    };
    const e = eventView(stored);
    // An execution event has no position.
    const other: EventRecord = { ...stored, type: "execution.confirmed", status: "confirmed", data: null };
    expect(eventView(other).position).toBeUndefined();
    expect(e.position).toEqual({
      ...positionView(record, { source: "none", slot: null, venue: null, liquidationValue: null }),
      valuation: {
        source: "none",
        slot: null,
        venue: null,
        detail: "events carry the ledger only; GET /v1/positions/{wallet}/{mint} values it",
      },
    });
  });
});
