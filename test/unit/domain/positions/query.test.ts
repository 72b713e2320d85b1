/** Issue 33: the positions and PnL queries: values, defaults, and 400s naming the allowed values. */
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { ApiError, POSITIONS, TRADE_RULES } from "../../../../src/core/errors.js";
import {
  parsePnlQuery,
  parsePositionsQuery,
  parseValuation,
  positionCursor,
} from "../../../../src/domain/positions/query.js";
import { pnlOf } from "../../../../src/domain/positions/pnl.js";
import type { PositionEntryRecord } from "../../../../src/store/index.js";

function refusal(f: () => unknown): { status: number; detail: string; extra: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, detail: e.detail, extra: e.extra };
    throw e;
  }
  throw new Error("no refusal");
}

const a = (): string => Keypair.generate().publicKey.toBase58();

describe("positions query", () => {
  it("defaults, filters and the cursor round trip", () => {
    const [w, m] = [a(), a()];
    expect(parsePositionsQuery({})).toEqual({ limit: 100, valuation: "warm" });
    const q = parsePositionsQuery({
      wallet: w,
      mint: m,
      status: "open",
      limit: "5",
      after: positionCursor({ wallet: w, mint: m }),
    });
    expect(q).toEqual({
      wallet: w,
      mint: m,
      status: "open",
      limit: 5,
      valuation: "warm",
      after: { wallet: w, mint: m },
    });
  });

  it("refuses bad values with their texts, enumerations with the allowed values beside", () => {
    expect(refusal(() => parsePositionsQuery({ status: "live" }))).toEqual({
      status: 400,
      detail: POSITIONS.statusInvalid,
      extra: { allowed: ["open", "closed"] },
    });
    expect(POSITIONS.statusInvalid).toBe("status must be one of open, closed");
    expect(refusal(() => parsePositionsQuery({ limit: "0" })).detail).toBe(POSITIONS.limitInvalid);
    expect(refusal(() => parsePositionsQuery({ limit: "501" })).detail).toBe(
      "limit must be an integer from 1 to 500",
    );
    expect(refusal(() => parsePositionsQuery({ wallet: "nope" })).detail).toBe(TRADE_RULES.walletInvalid);
    expect(refusal(() => parsePositionsQuery({ mint: "0OIl" })).detail).toBe(TRADE_RULES.mintInvalid);
    expect(refusal(() => parsePositionsQuery({ after: "!!" })).detail).toBe(POSITIONS.cursorInvalid);
    expect(
      refusal(() => parsePositionsQuery({ after: Buffer.from("x:y").toString("base64url") })).detail,
    ).toBe(POSITIONS.cursorInvalid);
    expect(refusal(() => parseValuation("cold", "read")).extra).toEqual({
      allowed: ["warm", "read", "none"],
    });
    expect(refusal(() => parsePositionsQuery({ valuation: "read" }))).toEqual({
      status: 400,
      detail: POSITIONS.listValuationInvalid,
      extra: { allowed: ["warm", "none"] },
    });
  });
});

describe("pnl query", () => {
  it("dates, RFC 3339 times with a zone, and the grouping", () => {
    expect(parsePnlQuery({ from: "2026-11-01", to: "2026-11-02T03:00:00+01:00", group_by: "day" })).toEqual({
      from: "2026-11-01T00:00:00.000",
      to: "2026-11-02T02:00:00.000",
      groupBy: "day",
    });
    expect(parsePnlQuery({})).toEqual({});
  });

  it("refuses bad values naming the allowed ones", () => {
    expect(refusal(() => parsePnlQuery({ group_by: "week" }))).toEqual({
      status: 400,
      detail: "group_by must be one of day, mint, wallet",
      extra: { allowed: ["day", "mint", "wallet"] },
    });
    expect(refusal(() => parsePnlQuery({ from: "2026-11-01T00:00:00" })).detail).toBe(POSITIONS.fromInvalid);
    expect(refusal(() => parsePnlQuery({ to: "yesterday" })).detail).toBe(POSITIONS.toInvalid);
    expect(refusal(() => parsePnlQuery({ from: "2026-11-02", to: "2026-11-01" })).detail).toBe(
      "from must be before to",
    );
  });
});

describe("pnl figures", () => {
  const line = (
    at: string,
    mint: string,
    side: "buy" | "sell",
    sol: bigint,
    realized: bigint,
  ): PositionEntryRecord => ({
    apiKeyId: 1,
    executionId: `${at}${mint}`,
    wallet: "W",
    mint,
    at,
    entry: {
      side,
      tokens: 1n,
      sol,
      fee: 5000n,
      tip: 10n,
      rent: 0n,
      costRemoved: 0n,
      realizedPnl: realized,
      outsideTokens: 0n,
    },
  });

  it("sums per day (no unrealized) and per mint (unrealized now, open positions without trades listed)", () => {
    const entries = [
      line("2026-11-01T10:00:00.000", "A", "buy", 1000n, 0n),
      line("2026-11-02T10:00:00.000", "A", "sell", 1500n, 500n),
    ];
    const unrealized = (g: string, k: string): bigint | null => (g === "total" ? 70n : k === "B" ? 70n : 0n);
    const byDay = pnlOf(entries, "day", unrealized, { mint: ["B"], wallet: ["W"] });
    expect(byDay.total).toMatchObject({
      realized_pnl_lamports: "500",
      unrealized_pnl_lamports: "70",
      volume_lamports: "2500",
      fee_lamports: "10000",
      tip_lamports: "20",
      trade_count: 2,
      buy_count: 1,
      sell_count: 1,
    });
    expect(byDay.groups?.map((g) => [g.key, g.realized_pnl_lamports, g.unrealized_pnl_lamports])).toEqual([
      ["2026-11-01", "0", null],
      ["2026-11-02", "500", null],
    ]);
    const byMint = pnlOf(entries, "mint", unrealized, { mint: ["B"], wallet: ["W"] });
    expect(byMint.groups?.map((g) => [g.key, g.trade_count, g.unrealized_pnl_lamports])).toEqual([
      ["A", 2, "0"],
      ["B", 0, "70"],
    ]);
    expect(pnlOf(entries, undefined, unrealized, { mint: [], wallet: [] }).groups).toBeUndefined();
  });
});
