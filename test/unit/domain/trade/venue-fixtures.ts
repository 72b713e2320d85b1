/** The venue states the quote tests share. Their expected numbers were computed independently (plain integer
 * arithmetic, reference B.1/B.2 formulas), not with the functions under test. */
import type { VenueState } from "../../../../src/domain/trade/quote.js";

/** A fresh bonding curve (the launch program's initial virtual reserves). */
export const CURVE: Extract<VenueState, { venue: "bonding_curve" }> = {
  venue: "bonding_curve",
  curve: {
    virtualTokenReserves: 1_073_000_000_000_000n,
    virtualQuoteReserves: 30_000_000_000n,
    realTokenReserves: 793_100_000_000_000n,
    realQuoteReserves: 0n,
    complete: false,
  },
  fees: { protocolFeeBps: 95n, creatorFeeBps: 30n },
};

/** The SDK's mainnet golden pool: 5e14 base / 5e10 lamports, tier 0 of the live FeeConfig (lp 2, protocol 93, creator 30). */
export const POOL: Extract<VenueState, { venue: "launchswap" }> = {
  venue: "launchswap",
  reserves: { baseReserve: 500_000_000_000_000n, quoteReserve: 50_000_000_000n, virtualQuoteReserves: 0n },
  fees: { lpFeeBps: 2n, protocolFeeBps: 93n, creatorFeeBps: 30n },
};
