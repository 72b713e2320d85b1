/**
 * A completing v3 buy's events (TradeEvent, CompleteEvent, PostCompleteBuyEvent) become one trade message
 * with the buyer's total, then a separate complete message; the hub delivers the completion to the mint's,
 * the trader's and the migration subscribers.
 */
import { describe, expect, it } from "vitest";
import { messagesOf } from "../../../../src/domain/market/market-feed.js";
import { MarketHub, type MarketSink } from "../../../../src/domain/market/market-hub.js";
import type { LaunchEvent } from "../../../../src/launch/events/launch-event.js";
import type { PoolDirectory } from "../../../../src/domain/market/pool-directory.js";

const MINT = "Mint111111111111111111111111111111111111111";
const BUYER = "Buyer11111111111111111111111111111111111111";
const WSOL = "So11111111111111111111111111111111111111112";
const tx = { signature: "sig", slot: 7 };
const deps = { pools: {} as PoolDirectory, curveSupply: () => 1_000_000_000_000_000n };

const curveTrade = (user: string): LaunchEvent => ({
  kind: "curve_trade",
  mint: MINT,
  user,
  isBuy: true,
  solAmount: 2_000_000n,
  tokenAmount: 1_000_000_000n,
  virtualSolReserves: 115_000_000_000n,
  virtualTokenReserves: 279_900_000_000_000n,
  realSolReserves: 85_000_000_000n,
  realTokenReserves: 0n,
  mayhemMode: false,
  cashback: 0n,
  cashbackFeeBasisPoints: 0n,
  ixName: "buy_exact_quote_in_v3",
  timestamp: 100n,
  quoteMint: WSOL,
  quoteAmount: 2_000_000n,
});
const complete: LaunchEvent = {
  kind: "complete",
  mint: MINT,
  user: BUYER,
  bondingCurve: "Curve",
  timestamp: 100n,
};
const postComplete: LaunchEvent = {
  kind: "post_complete_buy",
  mint: MINT,
  user: BUYER,
  quoteMint: WSOL,
  baseOut: 5_000_000_000n,
  quoteIn: 3_000_000n,
  timestamp: 100n,
};

describe("a completing v3 buy on the stream", () => {
  it("one trade message with the buyer's total, then a complete message", async () => {
    const out = await messagesOf([curveTrade(BUYER), complete, postComplete], tx, deps);
    expect(out.map((m) => m.type)).toEqual(["trade", "complete"]);
    expect(out[0]).toMatchObject({
      token_amount: "6000000000",
      sol_amount: "5000000",
      quote_amount: "5000000",
      quote_mint: WSOL,
      post_complete_token_amount: "5000000000",
      post_complete_quote_amount: "3000000",
      curve_complete: true,
    });
    expect(out[1]).toEqual({
      type: "complete",
      signature: "sig",
      slot: 7,
      mint: MINT,
      timestamp: 100,
      bonding_curve: "Curve",
      trader: BUYER,
    });
  });

  it("a trade without a pool part reports its own amounts; another buyer's pool part is not added", async () => {
    const [alone] = await messagesOf([curveTrade(BUYER)], tx, deps);
    expect(alone).toMatchObject({
      token_amount: "1000000000",
      post_complete_token_amount: "0",
      curve_complete: false,
    });
    const [other] = await messagesOf(
      [curveTrade("Other1111111111111111111111111111111111111"), postComplete],
      tx,
      deps,
    );
    expect(other).toMatchObject({ token_amount: "1000000000", post_complete_quote_amount: "0" });
  });

  it("the hub delivers the complete message to mint, trader and migration subscribers", async () => {
    const hub = new MarketHub();
    const got: string[] = [];
    const sink = (name: string): MarketSink => ({ deliver: () => void got.push(name) });
    hub.setMigration(sink("migration"), true);
    hub.addKey("token", MINT, sink("mint"));
    hub.addKey("account", BUYER, sink("trader"));
    hub.addKey("token", "Elsewhere", sink("other"));
    const [, message] = await messagesOf([curveTrade(BUYER), complete, postComplete], tx, deps);
    expect(hub.publish(message!)).toBe(3);
    expect(got.sort()).toEqual(["migration", "mint", "trader"]);
  });
});
