/**
 * Issue 33: the positions ledger's arithmetic (average-cost method), pure and exact (bigint). One position is
 * one wallet × mint; each confirmed fill moves it. Shared by the store (which applies a fill in the same
 * transaction that records it) and by the rebuild, so both give the same numbers by construction.
 *
 * Rules (docs/positions.md):
 * - a buy adds every lamport the wallet spent (trade, network fee, tip, rent) to the cost basis;
 * - a sell removes the sold share of the cost basis, `cost × sold / held` truncated to the lamport (the last
 *   token takes what remains, so a closed position keeps no dust of basis), and realizes `proceeds − removed`,
 *   proceeds being the wallet's net SOL change (fee and tip already taken);
 * - tokens the balance shows but no fill brought (a transfer in, an airdrop) are held at an unknown basis:
 *   they never enter the average; sells take known-basis tokens first, and the proceeds of unknown-basis
 *   tokens are kept apart instead of being counted as realized PnL;
 * - tokens that left outside the service go from the unknown-basis tokens first, then from the known ones at
 *   their average cost (that cost leaves with them; nothing is realized).
 */

/** Every figure of one position; amounts are lamports or token atomic units. */
export interface PositionFigures {
  tokensHeld: bigint;
  /** Part of tokensHeld of unknown cost (arrived outside the service). */
  unknownBasisTokens: bigint;
  /** What the known-basis tokens held cost, fees, tip and rent included. */
  costBasis: bigint;
  /** The fee part (network fee, tip, rent) of costBasis. */
  costBasisFees: bigint;
  realizedPnl: bigint;
  /** Net SOL received for unknown-basis tokens sold (not in realizedPnl). */
  unknownBasisProceeds: bigint;
  boughtTokens: bigint;
  soldTokens: bigint;
  /** SOL spent on buys, everything included. */
  spent: bigint;
  /** Net SOL received from sells. */
  received: bigint;
  feeLamports: bigint;
  tipLamports: bigint;
  rentLamports: bigint;
  tokensInOutside: bigint;
  tokensOutOutside: bigint;
  tradeCount: number;
}

/** A confirmed trade's fill as the ledger reads it. */
export interface LedgerFill {
  side: "buy" | "sell";
  /** post − pre lamports of the wallet. */
  solChange: bigint;
  fee: bigint;
  tip: bigint;
  rent: bigint;
  /** post − pre token atomic units. */
  tokenChange: bigint;
  /** The wallet's balance of the mint after the trade; null when unknown (then no outside movement is seen). */
  balanceAfter: bigint | null;
}

/** What one fill did to the position (a ledger line). */
export interface LedgerEntry {
  side: "buy" | "sell";
  tokens: bigint;
  /** Net SOL: spent (buy, positive) or received (sell). */
  sol: bigint;
  fee: bigint;
  tip: bigint;
  rent: bigint;
  /** Basis removed by the sell (0 for a buy). */
  costRemoved: bigint;
  /** Realized PnL of the sell (0 for a buy). */
  realizedPnl: bigint;
  /** Tokens found arriving (positive) or leaving (negative) outside the service before this trade. */
  outsideTokens: bigint;
}

/** A position holding nothing. */
export function emptyFigures(): PositionFigures {
  return {
    tokensHeld: 0n,
    unknownBasisTokens: 0n,
    costBasis: 0n,
    costBasisFees: 0n,
    realizedPnl: 0n,
    unknownBasisProceeds: 0n,
    boughtTokens: 0n,
    soldTokens: 0n,
    spent: 0n,
    received: 0n,
    feeLamports: 0n,
    tipLamports: 0n,
    rentLamports: 0n,
    tokensInOutside: 0n,
    tokensOutOutside: 0n,
    tradeCount: 0,
  };
}

/** `whole × part / of`, truncated; the whole when `part` is all of `of` (no remainder left behind). */
export function shareOf(whole: bigint, part: bigint, of: bigint): bigint {
  if (of <= 0n || part >= of) return whole;
  return (whole * part) / of;
}

/** Removes `tokens` known-basis tokens at average cost; returns the basis removed. */
function removeKnown(f: PositionFigures, tokens: bigint): bigint {
  const known = f.tokensHeld - f.unknownBasisTokens;
  const removed = shareOf(f.costBasis, tokens, known);
  f.costBasisFees -= shareOf(f.costBasisFees, tokens, known);
  f.costBasis -= removed;
  f.tokensHeld -= tokens;
  return removed;
}

/** Tokens found arriving from outside: held at an unknown basis. */
function arriveOutside(f: PositionFigures, tokens: bigint): void {
  f.tokensHeld += tokens;
  f.unknownBasisTokens += tokens;
  f.tokensInOutside += tokens;
}

/** Tokens found leaving outside: unknown-basis ones first, then known ones at their average cost. */
function leaveOutside(f: PositionFigures, tokens: bigint): void {
  const fromUnknown = tokens < f.unknownBasisTokens ? tokens : f.unknownBasisTokens;
  f.unknownBasisTokens -= fromUnknown;
  f.tokensHeld -= fromUnknown;
  const rest = tokens - fromUnknown;
  if (rest > 0n) removeKnown(f, rest);
  f.tokensOutOutside += tokens;
}

/** The position after `fill`, and the ledger line it makes. `before` is not changed. */
export function applyFill(
  before: PositionFigures,
  fill: LedgerFill,
): { figures: PositionFigures; entry: LedgerEntry } {
  const f = { ...before };
  let outside = 0n;
  if (fill.balanceAfter !== null) {
    outside = fill.balanceAfter - fill.tokenChange - f.tokensHeld;
    if (outside > 0n) arriveOutside(f, outside);
    else if (outside < 0n) leaveOutside(f, -outside);
  }
  const entry: LedgerEntry = {
    side: fill.side,
    tokens: fill.tokenChange < 0n ? -fill.tokenChange : fill.tokenChange,
    sol: fill.side === "buy" ? -fill.solChange : fill.solChange,
    fee: fill.fee,
    tip: fill.tip,
    rent: fill.rent,
    costRemoved: 0n,
    realizedPnl: 0n,
    outsideTokens: outside,
  };
  if (fill.side === "buy") {
    f.costBasis += entry.sol;
    f.costBasisFees += fill.fee + fill.tip + fill.rent;
    f.tokensHeld += entry.tokens;
    f.boughtTokens += entry.tokens;
    f.spent += entry.sol;
  } else {
    // Without a balance, a sell of more than the ledger holds shows tokens that arrived unseen.
    if (entry.tokens > f.tokensHeld) {
      entry.outsideTokens += entry.tokens - f.tokensHeld;
      arriveOutside(f, entry.tokens - f.tokensHeld);
    }
    const known = f.tokensHeld - f.unknownBasisTokens;
    const fromKnown = entry.tokens < known ? entry.tokens : known;
    const proceedsKnown = shareOf(entry.sol, fromKnown, entry.tokens);
    const removed = removeKnown(f, fromKnown);
    const fromUnknown = entry.tokens - fromKnown;
    f.unknownBasisTokens -= fromUnknown;
    f.tokensHeld -= fromUnknown;
    f.unknownBasisProceeds += entry.sol - proceedsKnown;
    entry.costRemoved = removed;
    entry.realizedPnl = proceedsKnown - removed;
    f.realizedPnl += entry.realizedPnl;
    f.soldTokens += entry.tokens;
    f.received += entry.sol;
  }
  f.feeLamports += fill.fee;
  f.tipLamports += fill.tip;
  f.rentLamports += fill.rent;
  f.tradeCount += 1;
  return { figures: f, entry };
}

/**
 * Average entry price in lamports per whole token (10^decimals atomic units), 6 decimals, truncated; null
 * when no known-basis token is held.
 */
export function averageEntryPrice(f: PositionFigures, decimals: number): string | null {
  const known = f.tokensHeld - f.unknownBasisTokens;
  if (known <= 0n) return null;
  const micro = (f.costBasis * 10n ** BigInt(decimals) * 1_000_000n) / known;
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
}

/** Unrealized PnL of the known-basis tokens at a liquidation value of every token held. */
export function unrealizedPnl(f: PositionFigures, liquidationValue: bigint): bigint {
  const known = f.tokensHeld - f.unknownBasisTokens;
  return shareOf(liquidationValue, known, f.tokensHeld) - f.costBasis;
}

const BIGINT_FIELDS = [
  "tokensHeld",
  "unknownBasisTokens",
  "costBasis",
  "costBasisFees",
  "realizedPnl",
  "unknownBasisProceeds",
  "boughtTokens",
  "soldTokens",
  "spent",
  "received",
  "feeLamports",
  "tipLamports",
  "rentLamports",
  "tokensInOutside",
  "tokensOutOutside",
] as const;

/** The figures as JSON-safe text (amounts as decimal strings), as stored. */
export function figuresToJson(f: PositionFigures): string {
  const out: Record<string, string | number> = { tradeCount: f.tradeCount };
  for (const k of BIGINT_FIELDS) out[k] = f[k].toString();
  return JSON.stringify(out);
}

/** Stored figures back; missing fields read as 0 (a column added later). */
export function figuresFromJson(text: string): PositionFigures {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const f = emptyFigures();
  // Most figures of a position are zero (no sell, no tip, nothing outside): BigInt("0") is the costly way to 0n.
  for (const k of BIGINT_FIELDS) {
    const v = raw[k];
    if (typeof v === "string" && v !== "0") f[k] = BigInt(v);
  }
  f.tradeCount = typeof raw.tradeCount === "number" ? raw.tradeCount : 0;
  return f;
}
