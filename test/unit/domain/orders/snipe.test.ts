/** The snipe order's rules: its body's 400 texts, and which create events it matches. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../../src/core/errors.js";
import type { CurveCreateEvent } from "../../../../src/launch/events/launch-event.js";
import { globMatch, parseSnipeRequest, snipeMatches } from "../../../../src/domain/orders/snipe.js";
import { SNIPE_RULES as S } from "../../../../src/domain/orders/snipe-texts.js";
import { ORDER_RULES as R } from "../../../../src/domain/orders/texts.js";

const creator = Keypair.generate().publicKey.toBase58();
const bounds = { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n };
const now = new Date("2026-11-28T20:00:00Z");
const parse = (body: Record<string, unknown>) => parseSnipeRequest(body, bounds, now);

function refusal(body: Record<string, unknown>): string {
  try {
    parse(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).detail;
  }
  throw new Error("accepted");
}

const base = { kind: "snipe", amount: "0.1" };

describe("snipe request rules", () => {
  it.each([
    ["an unknown field", { ...base, creators: [creator], price: "1" }, S.field("price")],
    ["a sell", { ...base, creators: [creator], side: "sell" }, S.buyOnly],
    ["no amount", { kind: "snipe", creators: [creator] }, S.amount],
    ["an amount of 0", { ...base, amount: "0", creators: [creator] }, S.amount],
    ["no rule at all", base, S.ruleRequired],
    ["creators not a list", { ...base, creators: creator }, S.creators],
    ["an empty creators list", { ...base, creators: [] }, S.creators],
    ["a creator that is not an address", { ...base, creators: ["nope"] }, S.creators],
    ["an empty name pattern", { ...base, name_pattern: "" }, S.pattern("name_pattern")],
    ["a long symbol pattern", { ...base, symbol_pattern: "x".repeat(65) }, S.pattern("symbol_pattern")],
    ["a mayhem flag that is not a boolean", { ...base, mayhem: "yes" }, S.flag("mayhem")],
    ["a bad initial buy", { ...base, min_initial_buy: "abc" }, S.initialBuy("min_initial_buy")],
    ["initial buy bounds reversed", { ...base, min_initial_buy: "2", max_initial_buy: "1" }, S.initialBounds],
    ["max_per_hour of 0", { ...base, cashback: true, max_per_hour: 0 }, S.perHour],
    ["max_per_hour not an integer", { ...base, cashback: true, max_per_hour: 1.5 }, S.perHour],
    ["an expiry in the past", { ...base, cashback: true, expires_at: "2026-11-28T19:00:00Z" }, R.expiresPast],
  ])("refuses %s", (_name, body, detail) => {
    expect(refusal(body)).toBe(detail);
  });

  it("keeps the rule, the SOL per token and the cap", () => {
    const r = parse({
      ...base,
      creators: [creator],
      name_pattern: "*cat*",
      mayhem: false,
      min_initial_buy: "0.5",
      max_per_hour: 3,
      slippage_bps: 300,
    });
    expect(r.lamports).toBe(100_000_000n);
    expect(r.slippageBps).toBe(300n);
    expect(r.rule).toEqual({
      creators: [creator],
      namePattern: "*cat*",
      symbolPattern: null,
      mayhem: false,
      cashback: null,
      minInitialBuyLamports: 500_000_000n,
      maxInitialBuyLamports: null,
      maxPerHour: 3,
    });
  });
});

function created(over: Partial<CurveCreateEvent> = {}): CurveCreateEvent {
  return {
    kind: "create",
    mint: Keypair.generate().publicKey.toBase58(),
    name: "Moon Cat",
    symbol: "MCAT",
    uri: "https://example.test/c.json",
    creator,
    user: creator,
    bondingCurve: Keypair.generate().publicKey.toBase58(),
    virtualTokenReserves: 1n,
    virtualSolReserves: 1n,
    realTokenReserves: 1n,
    tokenTotalSupply: 1n,
    isMayhemMode: false,
    isCashbackEnabled: true,
    timestamp: 0n,
    tokenProgram: Keypair.generate().publicKey.toBase58(),
    quoteMint: Keypair.generate().publicKey.toBase58(),
    creatorFeeBps: 0n,
    isHolderReward: false,
    ...over,
  };
}

describe("snipe match", () => {
  const rule = (over: Record<string, unknown>) => parse({ ...base, ...over }).rule;
  it.each([
    ["its creator", { creators: [creator] }, {}, 0n, true],
    ["another creator", { creators: [Keypair.generate().publicKey.toBase58()] }, {}, 0n, false],
    ["a name glob", { name_pattern: "moon*" }, {}, 0n, true],
    ["a name glob that misses", { name_pattern: "dog*" }, {}, 0n, false],
    ["a symbol glob with ?", { symbol_pattern: "m?at" }, {}, 0n, true],
    ["the cashback flag", { cashback: true }, {}, 0n, true],
    ["a mayhem flag that differs", { mayhem: true }, {}, 0n, false],
    ["an initial buy under the minimum", { min_initial_buy: "1" }, {}, 999_999_999n, false],
    ["an initial buy at the minimum", { min_initial_buy: "1" }, {}, 1_000_000_000n, true],
    ["an initial buy over the maximum", { max_initial_buy: "1" }, {}, 1_000_000_001n, false],
    ["every condition, one failing", { creators: [creator], name_pattern: "x*" }, {}, 0n, false],
  ])("%s", (_name, r, ev, initialBuyLamports, expected) => {
    expect(snipeMatches(rule(r), { event: created(ev), initialBuyLamports })).toBe(expected);
  });

  it("globs are whole-text, case-insensitive, and take regex characters literally", () => {
    expect(globMatch("a.c", "abc")).toBe(false);
    expect(globMatch("a.c", "A.C")).toBe(true);
    expect(globMatch("cat", "cats")).toBe(false);
  });
});
