/**
 * Decoded trade events refresh the warm venue state of watched mints (issue 21): the curve takes the
 * event's reserves, the pool's vaults the amounts after the trade; only at a newer slot than the cached one.
 */
import { describe, expect, it } from "vitest";
import { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import type { AccountInfo } from "../../../../src/chain/rpc-client.js";
import { EventRefresh } from "../../../../src/domain/watch/event-refresh.js";
import { VenueState } from "../../../../src/domain/watch/venue-state.js";
import type {
  CurveTradeEvent,
  LaunchEvent,
  PoolTradeEvent,
} from "../../../../src/launch/events/launch-event.js";
import { LAUNCH_PROGRAM_ID } from "../../../../src/launch/programs.js";
import { decodeBondingCurve, decodeTokenAccount } from "../../../../src/launch/state.js";
import { bondingCurveData, key, tokenAccountData } from "../../../helpers/fixtures.js";
import { fakeWarmChain } from "../../../helpers/warm-fakes.js";

const MINT = key(5);
const RENT = 2_039_280n;

function trade(over: Partial<CurveTradeEvent> = {}): CurveTradeEvent {
  return {
    kind: "curve_trade",
    mint: MINT.toBase58(),
    user: key(6).toBase58(),
    isBuy: true,
    solAmount: 1_000_000_000n,
    tokenAmount: 33_000_000_000_000n,
    virtualSolReserves: 31_000_000_000n,
    virtualTokenReserves: 1_040_000_000_000_000n,
    realSolReserves: 1_000_000_000n,
    realTokenReserves: 760_100_000_000_000n,
    mayhemMode: false,
    cashback: 0n,
    cashbackFeeBasisPoints: 0n,
    ixName: "buy",
    timestamp: 0n,
    quoteMint: "So11111111111111111111111111111111111111112",
    quoteAmount: 1_000_000_000n,
    ...over,
  };
}

function poolTrade(pool: string, over: Partial<PoolTradeEvent> = {}): PoolTradeEvent {
  return {
    kind: "pool_trade",
    isBuy: true,
    pool,
    user: key(6).toBase58(),
    coinCreator: key(7).toBase58(),
    baseAmount: 100n,
    quoteAmount: 50n,
    poolBaseReservesBefore: 1_000n,
    poolQuoteReservesBefore: 500n,
    poolBaseReservesAfter: 900n,
    poolQuoteReservesAfter: 551n,
    cashback: 0n,
    cashbackFeeBasisPoints: 0n,
    baseSupply: 1_000_000n,
    ixName: "buy",
    timestamp: 0n,
    ...over,
  };
}

async function curveAccount(): Promise<AccountInfo> {
  const data = await bondingCurveData(key(7), Buffer.alloc(26, 7));
  return { lamports: RENT, owner: LAUNCH_PROGRAM_ID, data, executable: false };
}

/** A token account of `mint` held by `owner`; `isNative` (the rent reserve) makes it a WSOL account. */
function vault(mint: PublicKey, owner: PublicKey, amount: bigint, isNative?: bigint): AccountInfo {
  return {
    lamports: RENT + (isNative !== undefined ? amount : 0n),
    owner: TOKEN_PROGRAM_ID,
    data: tokenAccountData({ mint, owner, amount, ...(isNative !== undefined ? { isNative } : {}) }),
    executable: false,
  };
}

/** A watched mint whose curve and pool vaults are cached at slot 10 (the SPL base vault; no Token-2022 one). */
async function watched() {
  const f = fakeWarmChain();
  const venues = new VenueState({ accounts: f.accounts, maxMints: 4, idleMs: 60_000 });
  const curve = await curveAccount();
  const pending = venues.watch(MINT.toBase58(), true);
  // Set before the seed read runs (it waits for the subscriptions' confirmation first).
  const keys = venues.keysOf({ mint: MINT.toBase58() })!;
  const pool = new PublicKey(keys.pool);
  f.chain.set(keys.curve, curve);
  f.chain.set(keys.poolBaseSpl, vault(MINT, pool, 1_000n));
  f.chain.set(keys.poolQuote, vault(NATIVE_MINT, pool, 500n, RENT));
  await pending;
  return { f, venues, keys, refresh: new EventRefresh(venues, f.accounts) };
}

describe("EventRefresh", () => {
  it("a curve trade at a newer slot rewrites the cached curve with the event's reserves", async () => {
    const { f, keys, refresh } = await watched();
    await refresh.apply([trade()], 11);
    const cached = f.cached(keys.curve)!;
    expect(cached.slot).toBe(11);
    const curve = decodeBondingCurve(cached.account!.data);
    expect(curve).toMatchObject({
      virtualTokenReserves: 1_040_000_000_000_000n,
      virtualQuoteReserves: 31_000_000_000n,
      realTokenReserves: 760_100_000_000_000n,
      realQuoteReserves: 1_000_000_000n,
      creator: key(7),
    });
    expect(cached.account!.data.subarray(125)).toEqual(Buffer.alloc(26, 7));
    expect(cached.account!.lamports).toBe(RENT + 1_000_000_000n);
    expect(refresh.refreshed).toBe(1);
  });

  it("an event at the cached slot or older changes nothing", async () => {
    const { f, keys, refresh } = await watched();
    const before = f.cached(keys.curve);
    await refresh.apply([trade()], 10);
    await refresh.apply([trade()], 9);
    expect(f.cached(keys.curve)).toEqual(before);
    expect(refresh.refreshed).toBe(0);
  });

  it("of one transaction's trades the last counts; a curve that completes in it is left to its notification", async () => {
    const { f, keys, refresh } = await watched();
    await refresh.apply([trade(), trade({ virtualSolReserves: 32_000_000_000n })], 11);
    expect(decodeBondingCurve(f.cached(keys.curve)!.account!.data).virtualQuoteReserves).toBe(
      32_000_000_000n,
    );
    const complete: LaunchEvent = {
      kind: "complete",
      mint: MINT.toBase58(),
      user: key(6).toBase58(),
      bondingCurve: keys.curve,
      timestamp: 0n,
    };
    await refresh.apply([trade({ virtualSolReserves: 85_000_000_000n }), complete], 12);
    expect(decodeBondingCurve(f.cached(keys.curve)!.account!.data).virtualQuoteReserves).toBe(
      32_000_000_000n,
    );
    expect(refresh.refreshed).toBe(1);
  });

  it("transactions handed in back to back apply in order, each on the one before", async () => {
    const { f, keys, refresh } = await watched();
    void refresh.apply([trade()], 11);
    await refresh.apply([trade({ virtualSolReserves: 32_000_000_000n })], 12);
    const cached = f.cached(keys.curve)!;
    expect(cached.slot).toBe(12);
    expect(decodeBondingCurve(cached.account!.data).virtualQuoteReserves).toBe(32_000_000_000n);
    expect(refresh.refreshed).toBe(2);
  });

  it("a pool trade on the watched mint's pool sets both vault amounts (WSOL lamports with it)", async () => {
    const { f, keys, refresh } = await watched();
    await refresh.apply([poolTrade(keys.pool)], 11);
    const base = f.cached(keys.poolBaseSpl)!;
    const quote = f.cached(keys.poolQuote)!;
    expect(decodeTokenAccount(base.account!.data, TOKEN_PROGRAM_ID).amount).toBe(900n);
    expect(decodeTokenAccount(quote.account!.data, TOKEN_PROGRAM_ID).amount).toBe(551n);
    expect(quote.account!.lamports).toBe(RENT + 551n);
    expect([base.slot, quote.slot]).toEqual([11, 11]);
    expect(f.cached(keys.poolBase2022)!.account).toBeNull();
    expect(refresh.refreshed).toBe(1);
  });

  it("trades of unwatched mints and other pools change nothing", async () => {
    const { f, keys, refresh, venues } = await watched();
    await refresh.apply([trade({ mint: key(8).toBase58() }), poolTrade(key(9).toBase58())], 11);
    expect(refresh.refreshed).toBe(0);
    venues.unwatch(MINT.toBase58());
    await refresh.apply([trade()], 12);
    expect(refresh.refreshed).toBe(0);
    expect(f.accounts.size()).toBe(0);
    expect(keys.curve).toBeTypeOf("string");
  });
});
