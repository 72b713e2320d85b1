import { describe, expect, it } from "vitest";
import { ApiError, RULES } from "../../src/domain/errors.js";
import { resolveRoute, WSOL_MINT, type RouteFacts } from "../../src/domain/trade-quote.js";

const MINT = "7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump";
const POOL = "GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const solPool = { address: POOL, baseMint: MINT, quoteMint: WSOL_MINT };

function detailOf(facts: RouteFacts): string {
  try {
    resolveRoute(facts);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).detail;
  }
  throw new Error("expected a 400");
}

describe("resolveRoute", () => {
  it("uses the curve while it is not complete", () => {
    expect(
      resolveRoute({ mint: MINT, explicitPool: null, curve: { complete: false }, pool: solPool }),
    ).toEqual({
      venue: "bonding_curve",
      pool: null,
      mint: MINT,
    });
  });

  it("moves to the canonical pool once the curve is complete", () => {
    expect(
      resolveRoute({ mint: MINT, explicitPool: null, curve: { complete: true }, pool: solPool }),
    ).toEqual({
      venue: "launchswap",
      pool: POOL,
      mint: MINT,
    });
  });

  it("an explicit pool forces launchswap even on a live curve", () => {
    expect(
      resolveRoute({ mint: MINT, explicitPool: POOL, curve: { complete: false }, pool: solPool }).venue,
    ).toBe("launchswap");
  });

  it("refuses missing, foreign-quoted and mismatched pools", () => {
    expect(detailOf({ mint: MINT, explicitPool: POOL, curve: null, pool: null })).toBe(RULES.poolNotFound);
    const usdcPool = { ...solPool, quoteMint: USDC };
    expect(detailOf({ mint: MINT, explicitPool: POOL, curve: null, pool: usdcPool })).toBe(
      RULES.poolNotSolQuoted,
    );
    const other = { ...solPool, baseMint: USDC };
    expect(detailOf({ mint: MINT, explicitPool: POOL, curve: null, pool: other })).toBe(
      RULES.poolMintMismatch,
    );
  });

  it("refuses unknown tokens and complete curves not yet migrated", () => {
    expect(detailOf({ mint: MINT, explicitPool: null, curve: null, pool: null })).toBe(RULES.tokenNotFound);
    expect(detailOf({ mint: MINT, explicitPool: null, curve: { complete: true }, pool: null })).toBe(
      RULES.swapPoolNotFound,
    );
  });

  it("trades a mint without a curve on its canonical pool", () => {
    expect(resolveRoute({ mint: MINT, explicitPool: null, curve: null, pool: solPool }).venue).toBe(
      "launchswap",
    );
  });
});
