/** The pure trigger rules: the price of a size, crossing, the trailing level, percent levels, and the book's index. */
import { describe, expect, it } from "vitest";
import { OrderBook, type BookOrder } from "../../../../src/domain/orders/book.js";
import type { OrderSpec, Trigger } from "../../../../src/domain/orders/model.js";
import { orderSpec } from "./spec-fixture.js";
import {
  crossed,
  decide,
  levelFromEntry,
  priceOf,
  trailingLevel,
} from "../../../../src/domain/orders/rules.js";

const E18 = 10n ** 18n;

const spec = orderSpec;
const price = (name: Trigger["name"], direction: "above" | "below", p: bigint): Trigger => ({
  name,
  direction,
  level: { kind: "price", price: p },
  asked: {},
});

describe("trigger rules", () => {
  it("prices a size in SOL × 10^18 per whole token, fees being in the lamports given", () => {
    // 2 SOL for 1,000 whole tokens of 6 decimals: 0.002 SOL per token.
    expect(priceOf(2_000_000_000n, 1_000_000_000n, 6)).toBe((2n * E18) / 1000n);
    expect(priceOf(1n, 0n, 6)).toBeNull();
  });

  it("crosses above at ≥ and below at ≤, on price or on SOL out", () => {
    const obs = { price: 100n, solOut: 5n };
    expect(crossed("above", { kind: "price", price: 100n }, obs)).toBe(true);
    expect(crossed("above", { kind: "price", price: 101n }, obs)).toBe(false);
    expect(crossed("below", { kind: "price", price: 100n }, obs)).toBe(true);
    expect(crossed("below", { kind: "price", price: 99n }, obs)).toBe(false);
    expect(crossed("above", { kind: "sol_out", lamports: 5n }, obs)).toBe(true);
    expect(crossed("below", { kind: "sol_out", lamports: 4n }, obs)).toBe(false);
    expect(crossed("above", { kind: "sol_out", lamports: 1n }, { price: 1n, solOut: null })).toBe(false);
  });

  it("puts percent levels from the entry and the trailing level below the peak", () => {
    expect(levelFromEntry(1000n, 5000n)).toBe(1500n);
    expect(levelFromEntry(1000n, -2000n)).toBe(800n);
    expect(levelFromEntry(1000n, -10_000n)).toBeNull();
    expect(trailingLevel(1000n, 1500n)).toBe(850n);
  });

  it("a trailing stop raises its peak on a rise and fires on the fall to its level", () => {
    const s = spec({ kind: "trailing_stop", trailHundredths: 1000n });
    expect(decide(s, { price: 120n, solOut: 1n }, 100n)).toEqual({ fire: false, peak: 120n });
    expect(decide(s, { price: 109n, solOut: 1n }, 120n)).toEqual({ fire: false });
    expect(decide(s, { price: 108n, solOut: 1n }, 120n)).toEqual({ fire: true, trigger: "trailing_stop" });
  });

  it("a bracket fires the leg it crosses", () => {
    const s = spec({
      kind: "bracket",
      triggers: [price("take_profit", "above", 150n), price("stop_loss", "below", 80n)],
    });
    expect(decide(s, { price: 100n, solOut: 1n }, null)).toEqual({ fire: false });
    expect(decide(s, { price: 79n, solOut: 1n }, null)).toEqual({ fire: true, trigger: "stop_loss" });
    expect(decide(s, { price: 151n, solOut: 1n }, null)).toEqual({ fire: true, trigger: "take_profit" });
  });
});

describe("the book", () => {
  const order = (id: string, s: OrderSpec): BookOrder => ({
    id,
    mint: "M",
    version: 1,
    attempt: 0,
    spec: s,
    size: { side: "sell", units: s.sizeUnits! },
    peak: null,
    expiresAtMs: null,
  });

  it("returns only the crossed orders, quoting each size once, and forgets removed ones", () => {
    const book = new OrderBook();
    for (let i = 1; i <= 100; i++)
      book.add(order(`tp${i}`, spec({ triggers: [price("take_profit", "above", BigInt(i * 10))] })));
    for (let i = 1; i <= 100; i++)
      book.add(
        order(`sl${i}`, spec({ kind: "stop_loss", triggers: [price("stop_loss", "below", BigInt(i * 10))] })),
      );
    let quotes = 0;
    const { crossed: hit } = book.evaluate("M", () => {
      quotes++;
      return { price: 255n, solOut: 1n };
    });
    expect(quotes).toBe(1);
    const ids = hit.map((c) => c.order.id).sort();
    expect(ids.filter((id) => id.startsWith("tp"))).toHaveLength(25);
    expect(ids.filter((id) => id.startsWith("sl"))).toHaveLength(75);
    expect(book.remove("tp1")?.mintEmpty).toBe(false);
    expect(
      book.evaluate("M", () => ({ price: 10n, solOut: 1n })).crossed.map((c) => c.order.id),
    ).not.toContain("tp1");
    expect(book.evaluate("other", () => ({ price: 1n, solOut: 1n })).crossed).toEqual([]);
  });
});
