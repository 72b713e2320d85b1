/** The memory of recently created mints: the curve from the create event, moved by later trades, aged out. */
import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import { CreatedMints, createdBuyRead } from "../../../../src/domain/watch/created-mints.js";
import type { CurveCreateEvent, CurveTradeEvent } from "../../../../src/launch/events/launch-event.js";
import { TOKEN_2022_PROGRAM_ID } from "../../../../src/launch/spl-token.js";

const key = () => Keypair.generate().publicKey.toBase58();

function createEvent(mint: string, quoteMint = PublicKey.default.toBase58()): CurveCreateEvent {
  return {
    kind: "create",
    mint,
    name: "n",
    symbol: "s",
    uri: "u",
    creator: key(),
    user: key(),
    bondingCurve: key(),
    virtualTokenReserves: 1_073_000_000_000_000n,
    virtualSolReserves: 30_000_000_000n,
    realTokenReserves: 793_100_000_000_000n,
    tokenTotalSupply: 1_000_000_000_000_000n,
    isMayhemMode: false,
    isCashbackEnabled: true,
    timestamp: 1n,
    tokenProgram: TOKEN_2022_PROGRAM_ID.toBase58(),
    quoteMint,
    creatorFeeBps: 0n,
    isHolderReward: false,
  };
}

function tradeEvent(mint: string, realSol: bigint): CurveTradeEvent {
  return {
    kind: "curve_trade",
    mint,
    user: key(),
    isBuy: true,
    solAmount: realSol,
    tokenAmount: 1n,
    virtualSolReserves: 30_000_000_000n + realSol,
    virtualTokenReserves: 1_000_000_000_000_000n,
    realSolReserves: realSol,
    realTokenReserves: 720_000_000_000_000n,
    mayhemMode: false,
    cashback: 0n,
    cashbackFeeBasisPoints: 0n,
    ixName: "buy",
    timestamp: 2n,
  } as CurveTradeEvent;
}

describe("CreatedMints", () => {
  it("keeps the create event's curve, moved by the trades after it; a complete curve is forgotten", () => {
    let last = 100;
    const created = new CreatedMints({ maxAgeSlots: 10, lastSlot: () => last });
    const mint = key();
    created.apply([createEvent(mint), tradeEvent(mint, 5n)], 100);
    const kept = created.lookup(mint)!;
    expect(kept.curve.realQuoteReserves).toBe(5n);
    expect(kept.curve.virtualQuoteReserves).toBe(30_000_000_005n);
    expect(kept.curve.complete).toBe(false);
    expect(kept.curve.isCashbackCoin).toBe(true);
    expect(kept.tokenProgram.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    created.apply([tradeEvent(mint, 9n)], 104);
    expect(created.lookup(mint)!.curve.realQuoteReserves).toBe(9n);
    // Older than maxAgeSlots after its last event: no longer used.
    last = 115;
    expect(created.lookup(mint)).toBeNull();
    const other = key();
    created.apply([createEvent(other)], 115);
    created.apply([{ kind: "complete", mint: other, user: key(), bondingCurve: key(), timestamp: 3n }], 116);
    expect(created.lookup(other)).toBeNull();
  });

  it("ignores curves not quoted in SOL, and is unusable while the feed is not live", () => {
    let live = true;
    const created = new CreatedMints({ maxAgeSlots: 10, lastSlot: () => 1, live: () => live });
    const usdc = key();
    created.apply([createEvent(usdc, key())], 1);
    expect(created.lookup(usdc)).toBeNull();
    const mint = key();
    created.apply([createEvent(mint)], 1);
    expect(created.lookup(mint)).not.toBeNull();
    live = false;
    expect(created.lookup(mint)).toBeNull();
  });

  it("a buy's read: token accounts absent, lamports from the wallet, decimals 6", () => {
    const created = new CreatedMints({ maxAgeSlots: 10, lastSlot: () => 1 });
    const mint = key();
    created.apply([createEvent(mint)], 1);
    const user = Keypair.generate().publicKey;
    const read = createdBuyRead(created.lookup(mint)!, user, 7n);
    expect(read).toMatchObject({
      venue: "bonding_curve",
      userAtaExists: false,
      userTokenBalance: 0n,
      userLamports: 7n,
      decimals: 6,
      mintSupply: 1_000_000_000_000_000n,
    });
  });
});
