/** StreamSession and MarketHub: limits, slow readers, fan-out, cleanup on close. */
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { MarketHub } from "../../../../src/domain/market/market-hub.js";
import type { TradeMessage } from "../../../../src/domain/market/messages.js";
import { CLOSE, StreamSession, type StreamTransport } from "../../../../src/domain/market/stream-session.js";

/** A transport whose socket never drains: every sent byte stays queued (a client that never reads). */
function transport(drains: boolean) {
  const sent: string[] = [];
  let queued = 0;
  let closed: { code: number; reason: string } | null = null;
  const t: StreamTransport = {
    send: (text) => {
      sent.push(text);
      if (!drains) queued += text.length;
    },
    bufferedBytes: () => queued,
    close: (code, reason) => {
      closed = { code, reason };
    },
  };
  return { t, sent, closedWith: () => closed, queued: () => queued };
}

const limits = { maxSubscriptions: 3, maxQueuedBytes: 4_096, authTimeoutMs: 1_000, maxMessagesPerSecond: 0 };
const addr = () => Keypair.generate().publicKey.toBase58();

function trade(mint: string, trader: string, i: number): TradeMessage {
  return {
    type: "trade",
    signature: `sig${i}`,
    slot: i,
    mint,
    timestamp: 0,
    venue: "bonding_curve",
    pool: null,
    trader,
    side: "buy",
    sol_amount: "1",
    token_amount: "1",
    quote_mint: "So11111111111111111111111111111111111111112",
    quote_amount: "1",
    post_complete_token_amount: "0",
    post_complete_quote_amount: "0",
    virtual_sol_reserves: "1",
    virtual_token_reserves: "1",
    real_sol_reserves: "1",
    real_token_reserves: "1",
    market_cap_sol: "0.000000001",
    is_mayhem: false,
    is_cashback: false,
    curve_complete: false,
  };
}

describe("StreamSession", () => {
  it("a client that never reads is closed with 4008 once its queue passes the limit; the others keep receiving", async () => {
    const hub = new MarketHub();
    const mint = addr();
    const slow = transport(false);
    const fast = transport(true);
    const s1 = new StreamSession(
      slow.t,
      { hub, limits, authenticate: async () => ({ ok: true as const }) },
      true,
    );
    const s2 = new StreamSession(
      fast.t,
      { hub, limits, authenticate: async () => ({ ok: true as const }) },
      true,
    );
    await s1.onText(JSON.stringify({ method: "subscribeTokenTrade", keys: [mint] }));
    await s2.onText(JSON.stringify({ method: "subscribeTokenTrade", keys: [mint] }));
    const trader = addr();
    for (let i = 0; i < 1_000; i++) hub.publish(trade(mint, trader, i));
    expect(slow.closedWith()).toMatchObject({ code: CLOSE.slowReader });
    // Bounded: never more than the limit queued.
    expect(slow.queued()).toBeLessThanOrEqual(limits.maxQueuedBytes);
    expect(fast.sent.filter((m) => m.includes('"type":"trade"'))).toHaveLength(1_000);
    expect(fast.closedWith()).toBeNull();
    // The closed session left the hub: publishing reaches only the fast one.
    expect(hub.publish(trade(mint, addr(), 1_001))).toBe(1);
  });

  it("counts subscriptions across topics and refuses past the limit without closing", async () => {
    const hub = new MarketHub();
    const tr = transport(true);
    const s = new StreamSession(
      tr.t,
      { hub, limits, authenticate: async () => ({ ok: true as const }) },
      true,
    );
    await s.onText(JSON.stringify({ method: "subscribeNewToken" }));
    await s.onText(JSON.stringify({ method: "subscribeAccountTrade", keys: [addr(), addr()] }));
    expect(s.subscriptionCount()).toBe(3);
    await s.onText(JSON.stringify({ method: "subscribeMigration" }));
    expect(JSON.parse(tr.sent.at(-1)!)).toMatchObject({ type: "error" });
    await s.onText(JSON.stringify({ method: "unsubscribeNewToken" }));
    await s.onText(JSON.stringify({ method: "subscribeMigration" }));
    expect(JSON.parse(tr.sent.at(-1)!)).toMatchObject({ type: "subscribed", subscriptions: 3 });
    expect(tr.closedWith()).toBeNull();
  });

  it("without a key at the upgrade: closes 4401 when the deadline passes, delivers nothing before auth", async () => {
    const hub = new MarketHub();
    const tr = transport(true);
    let fire: () => void = () => undefined;
    const s = new StreamSession(
      tr.t,
      {
        hub,
        limits,
        authenticate: async () => ({ ok: true as const }),
        setTimer: (fn) => {
          fire = fn;
          return { cancel: () => undefined };
        },
      },
      false,
    );
    s.deliver("{}");
    expect(tr.sent).toEqual([]);
    fire();
    expect(tr.closedWith()).toMatchObject({ code: CLOSE.unauthorized });
  });

  it("issue 29: replies (pong, error) are under the same byte bound: a client that never reads is closed 4008", async () => {
    const hub = new MarketHub();
    const slow = transport(false);
    const s = new StreamSession(
      slow.t,
      { hub, limits, authenticate: async () => ({ ok: true as const }) },
      true,
    );
    for (let i = 0; i < 10_000 && slow.closedWith() === null; i++) {
      await s.onText(i % 2 === 0 ? '{"method":"ping"}' : "not json");
    }
    expect(slow.closedWith()).toMatchObject({ code: CLOSE.slowReader });
    expect(slow.queued()).toBeLessThanOrEqual(limits.maxQueuedBytes);
    // Nothing more is written once closed.
    const count = slow.sent.length;
    await s.onText('{"method":"ping"}');
    expect(slow.sent).toHaveLength(count);
  });

  it("issue 29: without a key, 'authenticate first' errors are bounded too", async () => {
    const hub = new MarketHub();
    const slow = transport(false);
    const s = new StreamSession(
      slow.t,
      {
        hub,
        limits,
        authenticate: async () => ({ ok: true as const }),
        setTimer: () => ({ cancel: () => {} }),
      },
      false,
    );
    for (let i = 0; i < 10_000 && slow.closedWith() === null; i++) await s.onText('{"method":"ping"}');
    expect(slow.closedWith()).toMatchObject({ code: CLOSE.slowReader });
    expect(slow.queued()).toBeLessThanOrEqual(limits.maxQueuedBytes);
  });

  it("issue 29: one auth message at a time; a refused one closes with the code it names", async () => {
    const hub = new MarketHub();
    const tr = transport(true);
    let calls = 0;
    let resolve: (v: { ok: false; code: number; reason: string }) => void = () => {};
    const s = new StreamSession(
      tr.t,
      {
        hub,
        limits,
        authenticate: () => {
          calls++;
          return new Promise((r) => (resolve = r));
        },
        setTimer: () => ({ cancel: () => {} }),
      },
      false,
    );
    const first = s.onText('{"method":"auth","api_key":"a"}');
    await s.onText('{"method":"auth","api_key":"b"}');
    expect(calls).toBe(1);
    expect(JSON.parse(tr.sent.at(-1)!)).toEqual({ type: "error", message: "authentication in progress" });
    resolve({ ok: false, code: CLOSE.tooMany, reason: "too many invalid API keys" });
    await first;
    expect(tr.closedWith()).toEqual({ code: CLOSE.tooMany, reason: "too many invalid API keys" });
  });

  it("issue 29: more client messages than maxMessagesPerSecond in one second close the connection 4429", async () => {
    const hub = new MarketHub();
    const tr = transport(true);
    let now = 10_000;
    const s = new StreamSession(
      tr.t,
      {
        hub,
        limits: { ...limits, maxMessagesPerSecond: 5 },
        authenticate: async () => ({ ok: true as const }),
        nowMs: () => now,
      },
      true,
    );
    for (let i = 0; i < 5; i++) await s.onText('{"method":"ping"}');
    // A new second, a new allowance.
    now += 1_000;
    for (let i = 0; i < 5; i++) await s.onText('{"method":"ping"}');
    expect(tr.closedWith()).toBeNull();
    await s.onText('{"method":"ping"}');
    expect(tr.closedWith()).toEqual({
      code: CLOSE.tooMany,
      reason: "too many messages: at most 5 per second",
    });
    expect(tr.sent.filter((m) => m.includes("pong"))).toHaveLength(10);
  });

  it("a trade reaches a sink once when it holds both the mint and the trader", async () => {
    const hub = new MarketHub();
    const got: string[] = [];
    const sink = { deliver: (t: string) => got.push(t) };
    const mint = addr();
    const trader = addr();
    hub.addKey("token", mint, sink);
    hub.addKey("account", trader, sink);
    expect(hub.publish(trade(mint, trader, 1))).toBe(1);
    expect(got).toHaveLength(1);
    hub.removeSink(sink, { token: [mint], account: [trader] });
    expect(hub.keyCounts()).toEqual({ mints: 0, accounts: 0 });
  });
});
