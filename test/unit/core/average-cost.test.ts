/** Issue 33: the positions ledger's average-cost arithmetic (exact, truncated, unknown basis kept apart). */
import { describe, expect, it } from "vitest";
import {
  applyFill,
  averageEntryPrice,
  emptyFigures,
  figuresFromJson,
  figuresToJson,
  shareOf,
  unrealizedPnl,
  type LedgerFill,
  type PositionFigures,
} from "../../../src/core/average-cost.js";

const buy = (spent: bigint, tokens: bigint, after: bigint | null, fee = 5000n, rent = 0n): LedgerFill => ({
  side: "buy",
  solChange: -spent,
  fee,
  tip: 0n,
  rent,
  tokenChange: tokens,
  balanceAfter: after,
});
const sell = (received: bigint, tokens: bigint, after: bigint | null, fee = 5000n): LedgerFill => ({
  side: "sell",
  solChange: received,
  fee,
  tip: 0n,
  rent: 0n,
  tokenChange: -tokens,
  balanceAfter: after,
});

function run(fills: LedgerFill[]): PositionFigures {
  return fills.reduce((f, fill) => applyFill(f, fill).figures, emptyFigures());
}

describe("average cost", () => {
  it("buy, buy: the basis is every lamport spent, the fee part kept apart", () => {
    const f = run([
      buy(1_002_044_280n, 1_000_000n, 1_000_000n, 5000n, 2_039_280n),
      buy(300_010_000n, 333_333n, 1_333_333n, 10_000n),
    ]);
    expect(f.tokensHeld).toBe(1_333_333n);
    expect(f.costBasis).toBe(1_302_054_280n);
    expect(f.costBasisFees).toBe(5000n + 2_039_280n + 10_000n);
    expect(f.spent).toBe(1_302_054_280n);
    expect(f.rentLamports).toBe(2_039_280n);
    expect(f.tradeCount).toBe(2);
    // 1_302_054_280 × 10^6 / 1_333_333 lamports per whole token, 6 decimals, truncated.
    expect(averageEntryPrice(f, 6)).toBe("976540954.135238");
  });

  it("a partial sell removes the sold share of the basis, truncated, and realizes the rest", () => {
    const f0 = run([buy(1000n, 3n, 3n), buy(1001n, 3n, 6n)]);
    const { figures: f, entry } = applyFill(f0, sell(700n, 2n, 4n));
    // 2001 × 2 / 6 = 667 (667.0 exactly? 4002 / 6 = 667): truncation checked below with 1 token.
    expect(entry.costRemoved).toBe(667n);
    expect(entry.realizedPnl).toBe(700n - 667n);
    expect(f.costBasis).toBe(2001n - 667n);
    const { entry: one } = applyFill(f, sell(300n, 1n, 3n));
    // 1334 × 1 / 4 = 333.5 → 333.
    expect(one.costRemoved).toBe(333n);
    expect(one.realizedPnl).toBe(-33n);
  });

  it("selling all removes every lamport of basis left (no dust) and closes the position", () => {
    let f = run([buy(1000n, 3n, 3n), sell(400n, 1n, 2n)]);
    expect(f.costBasis).toBe(1000n - 333n);
    f = applyFill(f, sell(900n, 2n, 0n)).figures;
    expect(f.tokensHeld).toBe(0n);
    expect(f.costBasis).toBe(0n);
    expect(f.costBasisFees).toBe(0n);
    expect(f.realizedPnl).toBe(400n - 333n + (900n - 667n));
    // Realized over the whole life: everything received minus everything spent.
    expect(f.realizedPnl).toBe(f.received - f.spent);
    expect(averageEntryPrice(f, 6)).toBeNull();
  });

  it("tokens arriving outside the service get an unknown basis and never enter the average", () => {
    const f0 = run([buy(1000n, 100n, 100n)]);
    const price = averageEntryPrice(f0, 0);
    // 50 tokens airdropped, then a buy of 100 more: the balance after is 250, the ledger held 100.
    const { figures: f, entry } = applyFill(f0, buy(1000n, 100n, 250n));
    expect(entry.outsideTokens).toBe(50n);
    expect(f.tokensHeld).toBe(250n);
    expect(f.unknownBasisTokens).toBe(50n);
    expect(f.tokensInOutside).toBe(50n);
    expect(averageEntryPrice(f, 0)).toBe(price);
    // A sale of everything: known tokens first; the unknown ones' share of proceeds is kept out of PnL.
    const { figures: done, entry: last } = applyFill(f, sell(2500n, 250n, 0n));
    expect(last.realizedPnl).toBe((2500n * 200n) / 250n - 2000n);
    expect(done.unknownBasisProceeds).toBe(2500n - (2500n * 200n) / 250n);
    expect(done.unknownBasisTokens).toBe(0n);
    expect(done.tokensHeld).toBe(0n);
  });

  it("tokens leaving outside go from the unknown basis first, then at average cost, realizing nothing", () => {
    const f0 = run([buy(1000n, 100n, 100n), buy(1000n, 100n, 220n)]);
    expect(f0.unknownBasisTokens).toBe(20n);
    // 70 tokens transferred out, seen at the next sell's balance: 20 unknown, then 50 known at 10 each.
    const { figures: f } = applyFill(f0, sell(500n, 50n, 100n));
    expect(f.tokensOutOutside).toBe(70n);
    expect(f.unknownBasisTokens).toBe(0n);
    expect(f.tokensHeld).toBe(100n);
    expect(f.costBasis).toBe(2000n - 500n - 500n);
    expect(f.realizedPnl).toBe(0n);
  });

  it("without a balance, a sell of more than held counts the excess as arrived with an unknown basis", () => {
    const { figures: f, entry } = applyFill(run([buy(1000n, 10n, null)]), sell(3000n, 30n, null));
    expect(entry.outsideTokens).toBe(20n);
    expect(f.tokensHeld).toBe(0n);
    expect(f.realizedPnl).toBe(1000n - 1000n);
    expect(f.unknownBasisProceeds).toBe(2000n);
  });

  it("unrealized PnL values the known-basis share of the liquidation value against the basis", () => {
    const f = run([buy(1000n, 100n, 100n), buy(1000n, 100n, 250n)]);
    expect(unrealizedPnl(f, 2500n)).toBe((2500n * 200n) / 250n - 2000n);
    expect(unrealizedPnl(run([buy(1000n, 100n, 100n)]), 900n)).toBe(-100n);
  });

  it("shareOf truncates and gives the whole for the whole", () => {
    expect(shareOf(10n, 1n, 3n)).toBe(3n);
    expect(shareOf(10n, 3n, 3n)).toBe(10n);
    expect(shareOf(-10n, 1n, 3n)).toBe(-3n);
  });

  it("figures round-trip through their stored JSON exactly, u64 and beyond", () => {
    const f = { ...run([buy(1000n, 100n, 100n)]), tokensHeld: 18_446_744_073_709_551_615n };
    expect(figuresFromJson(figuresToJson(f))).toEqual(f);
  });
});
