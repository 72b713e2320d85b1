/**
 * PreparedTrades: an order's trade parsed when it enters the book is what its fire would parse (the same
 * intent, fees and spend plan), given once, only for the same version of the order and the same wallet, and
 * bounded (the oldest preparation goes first).
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { orderTrade } from "../../../../src/domain/orders/fire.js";
import { PreparedTrades } from "../../../../src/domain/orders/prepared-trades.js";
import { orderSpec } from "./spec-fixture.js";

const mint = Keypair.generate().publicKey.toBase58();
const wallet = Keypair.generate().publicKey.toBase58();
const TIP = 1_000n;

describe("PreparedTrades", () => {
  it("gives the trade the fire would parse, once", () => {
    const p = new PreparedTrades(TIP);
    const spec = orderSpec({ mint, priorityFeeLamports: 5_000n });
    p.prepare("o1", spec, wallet);
    const trade = p.take("o1", spec, wallet);
    expect(trade).toEqual(orderTrade(spec, wallet, TIP));
    expect(p.take("o1", spec, wallet)).toBeUndefined();
  });

  it("gives nothing for another version of the order or another wallet", () => {
    const p = new PreparedTrades(TIP);
    const spec = orderSpec({ mint });
    p.prepare("o1", spec, wallet);
    expect(p.take("o1", orderSpec({ mint }), wallet)).toBeUndefined();
    p.prepare("o2", spec, wallet);
    expect(p.take("o2", spec, Keypair.generate().publicKey.toBase58())).toBeUndefined();
    expect(p.size).toBe(0);
  });

  it("keeps at most `max`, dropping the oldest, and skips a trade that does not parse", () => {
    const p = new PreparedTrades(TIP, 2);
    const specs = [1, 2, 3].map(() => orderSpec({ mint }));
    specs.forEach((s, i) => p.prepare(`o${i}`, s, wallet));
    expect(p.size).toBe(2);
    expect(p.take("o0", specs[0]!, wallet)).toBeUndefined();
    expect(p.take("o2", specs[2]!, wallet)).toBeDefined();
    const bad = orderSpec({ mint: "not a mint" });
    expect(() => orderTrade(bad, wallet, TIP)).toThrow();
    p.prepare("bad", bad, wallet);
    expect(p.take("bad", bad, wallet)).toBeUndefined();
  });
});
