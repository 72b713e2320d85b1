/**
 * Events of a v3 trade: `TradeEvent` (the curve part; `fee_recipient` the zero key since the fee was
 * kept on the curve, `creator_fee_unclaimed` appended), then for the buy that completes the curve
 * `CompleteEvent` and, when it continued into the would-be pool, `PostCompleteBuyEvent`.
 */
import { PublicKey } from "@solana/web3.js";
import { postCompleteBuyLine, tradeEventTail } from "../upgrade/events.js";
import type { CurveBuckets } from "./curve-buckets.js";
import type { Bps, V3Buy } from "./curve-synthetic.js";
import { emitEvent } from "./events.js";
import type { Exec } from "./exec-support.js";
import type { Curve, GlobalState } from "./layouts.js";

/** What the events of one v3 trade are made of. */
export interface V3EventInput {
  name: "buy_v3" | "buy_exact_quote_in_v3" | "sell_v3";
  mint: PublicKey;
  curveKey: PublicKey;
  user: PublicKey;
  /** The curve before and after the curve part. */
  curve: Curve;
  after: Curve;
  trade: V3Buy;
  bps: Bps;
  global: GlobalState;
  /** The curve's fee buckets after the whole trade. */
  buckets: CurveBuckets;
  completed: boolean;
}

/** Logs the trade's events in the program's order. */
export function emitV3Events(x: Exec, e: V3EventInput): void {
  const t = e.trade.curve;
  const clock = x.ledger.clock();
  const mint = e.mint;
  emitEvent(
    x.log,
    "TradeEvent",
    {
      mint,
      solAmount: t.curveLamports,
      tokenAmount: t.tokens,
      isBuy: e.name !== "sell_v3",
      user: e.user,
      timestamp: clock.unixTimestamp,
      virtualSolReserves: e.after.virtualQuoteReserves,
      virtualTokenReserves: e.after.virtualTokenReserves,
      realSolReserves: e.after.realQuoteReserves,
      realTokenReserves: e.after.realTokenReserves,
      feeRecipient: PublicKey.default,
      feeBasisPoints: e.bps.protocolBps,
      fee: t.protocolFee,
      creator: e.curve.creator,
      creatorFeeBasisPoints: e.bps.creatorBps,
      creatorFee: t.creatorFee,
      trackVolume: false,
      totalUnclaimedTokens: 0n,
      totalClaimedTokens: 0n,
      currentSolVolume: 0n,
      lastUpdateTimestamp: 0n,
      ixName: e.name,
      mayhemMode: e.curve.isMayhemMode,
      cashbackFeeBasisPoints: 0n,
      cashback: 0n,
      buybackFeeBasisPoints: e.global.buybackBasisPoints,
      buybackFee: t.buybackFee,
      shareholders: [],
      quoteMint: e.curve.quoteMint,
      quoteAmount: t.curveLamports,
      virtualQuoteReserves: e.after.virtualQuoteReserves,
      realQuoteReserves: e.after.realQuoteReserves,
      holderRewardsBps: 0n,
      holderRewards: 0n,
    },
    tradeEventTail(e.buckets.creatorFee),
  );
  if (!e.completed) return;
  emitEvent(x.log, "CompleteEvent", {
    user: e.user,
    mint,
    bondingCurve: e.curveKey,
    timestamp: clock.unixTimestamp,
    quoteMint: e.curve.quoteMint,
  });
  const p = e.trade.pool;
  if (!p) return;
  x.log(
    postCompleteBuyLine({
      user: e.user,
      mint,
      bondingCurve: e.curveKey,
      quoteMint: e.curve.quoteMint,
      timestamp: clock.unixTimestamp,
      baseOut: p.baseOut,
      quoteIn: p.quoteIn,
      feeBasisPoints: e.bps.protocolBps,
      fee: p.protocolFee,
      creatorFeeBasisPoints: e.bps.creatorBps,
      creatorFee: p.creatorFee,
      buybackFee: p.buybackFee,
      poolBaseReservesBefore: p.poolBaseBefore,
      poolQuoteReservesBefore: p.poolQuoteBefore,
      poolBaseReservesAfter: p.poolBaseBefore - p.baseOut,
      poolQuoteReservesAfter: p.poolQuoteBefore + p.quoteIn,
    }),
  );
}
