/**
 * Copy orders on the sandbox: a leader (another account's wallet) trades through the service, the market feed
 * decodes the trade, and the copier's order buys then sells after it on the curve and on the launchswap pool;
 * each followed trade is copied once (Idempotency-Key `order:<id>:<signature>`), the order stays open.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";
import { trade } from "../../helpers/e2e.js";
import { createSubKey } from "../../helpers/security.js";
import { getOrder, placeOrder } from "./orders-fixture.js";
import { created, decided, firedExecution, leaderTrade } from "./copy-fixture.js";

const e2e = useE2e({ warm: true, market: true, env: { ORDERS_SYNC_MS: "50" } });

describe("copy orders", () => {
  it("on the curve: a ratio buy after the leader's buy, then the share of the position the leader sold", async () => {
    const leader = await e2e.setup({ sol: 10n });
    const copier = await e2e.setup({ sol: 10n });
    // The delay lets the test count the copy's own round trips (after the leader's trade has returned, which
    // takes well under 100 ms after the feed saw it; 1 s, not 3 s: each of the three copies waits it).
    const o = await placeOrder(e2e, copier.apiKey, {
      kind: "copy",
      follow: [leader.wallet],
      ratio: "0.5",
      delay_ms: 1000,
    });
    expect(o).toMatchObject({ kind: "copy", state: "open", mint: null, side: null });
    const mint = await created(e2e, leader.apiKey);
    const buySig = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.2");
    e2e.reset();
    const buy = await decided(e2e, o.id, buySig);
    // A token created lately: the copy's state came from the feed's events, no account read; one send.
    expect(e2e.roundTrips()["rpc.getMultipleAccounts"]).toBeUndefined();
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBe(1);
    expect(buy).toMatchObject({ side: "buy", mint, outcome: "filled" });
    // Half their SOL into the curve (fees excluded): just under 0.1 SOL.
    expect(buy.lamports).toBeGreaterThan(90_000_000n);
    expect(buy.lamports).toBeLessThanOrEqual(100_000_000n);
    const exec = await firedExecution(e2e, copier.apiKey, buy.executionId!);
    expect(exec).toMatchObject({ status: "confirmed", idempotency_key: `order:${o.id}:${buySig}` });
    expect(exec.response.venue).toBe("bonding_curve");
    const held = await e2e.tokenBalance(copier.wallet, mint);
    expect(held).toBeGreaterThan(0n);

    const sellSig = await leaderTrade(e2e, leader.apiKey, "sell", mint, "50%");
    expect(await decided(e2e, o.id, sellSig)).toMatchObject({
      side: "sell",
      outcome: "filled",
      lamports: 0n,
    });
    const left = await e2e.tokenBalance(copier.wallet, mint);
    // They sold half of theirs: we sold half of ours (the share floored to 0.01 %, the units floored too).
    expect(left * 10_000n).toBeGreaterThanOrEqual(held * 4_998n);
    expect(left * 10_000n).toBeLessThanOrEqual(held * 5_002n);
    const allSig = await leaderTrade(e2e, leader.apiKey, "sell", mint, "100%");
    expect(await decided(e2e, o.id, allSig)).toMatchObject({ outcome: "filled" });
    expect(await e2e.tokenBalance(copier.wallet, mint)).toBe(0n);
    const after = await getOrder(e2e, copier.apiKey, o.id);
    expect(after.state).toBe("open");
    expect(after.execution_ids).toHaveLength(3);
  });

  it("on the launchswap pool: a fixed-SOL buy, then all of it when the leader sells all", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    e2e.localnet.admin.complete(mint);
    e2e.localnet.admin.migrate(mint);
    const leader = await e2e.setup({ sol: 10n });
    const copier = await e2e.setup({ sol: 10n });
    const o = await placeOrder(e2e, copier.apiKey, { kind: "copy", follow: [leader.wallet], amount: "0.05" });
    const buySig = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.3");
    const buy = await decided(e2e, o.id, buySig);
    expect(buy).toMatchObject({ side: "buy", outcome: "filled", lamports: 50_000_000n });
    expect((await firedExecution(e2e, copier.apiKey, buy.executionId!)).response.venue).toBe("launchswap");
    expect(await e2e.tokenBalance(copier.wallet, mint)).toBeGreaterThan(0n);
    const sellSig = await leaderTrade(e2e, leader.apiKey, "sell", mint, "100%");
    const sell = await decided(e2e, o.id, sellSig);
    expect(sell).toMatchObject({ side: "sell", outcome: "filled" });
    expect((await firedExecution(e2e, copier.apiKey, sell.executionId!)).response.venue).toBe("launchswap");
    expect(await e2e.tokenBalance(copier.wallet, mint)).toBe(0n);
  });

  it("caps per token and per day cut a buy to what is left, then skip (recorded); buys_only ignores sells", async () => {
    const leader = await e2e.setup({ sol: 10n });
    const copier = await e2e.setup({ sol: 10n });
    const o = await placeOrder(e2e, copier.apiKey, {
      kind: "copy",
      follow: [leader.wallet],
      amount: "0.05",
      max_per_token: "0.08",
      max_per_day: "0.12",
      buys_only: true,
    });
    const a = e2e.localnet.admin.createToken().mint;
    const b = e2e.localnet.admin.createToken().mint;
    const sigs = [];
    for (const mint of [a, a, a, b, b]) sigs.push(await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.01"));
    const rows = [];
    for (const s of sigs) rows.push(await decided(e2e, o.id, s));
    expect(rows.map((r) => [r.outcome, r.lamports])).toEqual([
      ["filled", 50_000_000n],
      ["filled", 30_000_000n],
      ["skipped:max_per_token", 0n],
      ["filled", 40_000_000n],
      ["skipped:max_per_day", 0n],
    ]);
    const sold = await leaderTrade(e2e, leader.apiKey, "sell", a, "100%");
    // A buys_only order takes no row for a sell: the last decision is still the fifth buy's.
    await new Promise((r) => setTimeout(r, 300));
    expect((await e2e.store.copyFires(o.id)).find((f) => f.signature === sold)).toBeUndefined();
    const activity = (await e2e.get(copier.apiKey, "/v1/activity?limit=100")).json<{
      activity: { method: string; route: string; status: number; rule: string | null }[];
    }>().activity;
    const fires = activity.filter((r) => r.method === "FIRE" && r.route === `/v1/orders/${o.id}`);
    expect(fires.map((f) => [f.status, f.rule]).sort()).toEqual(
      [
        [200, null],
        [200, null],
        [200, null],
        [409, "max_per_day"],
        [409, "max_per_token"],
      ].sort(),
    );
    // The same decisions over HTTP, newest first, in pages of two; a key bound to another wallet finds no order.
    const seen: Record<string, unknown>[] = [];
    let url = `/v1/orders/${o.id}/fires?limit=2`;
    for (;;) {
      const page = await e2e.get(copier.apiKey, url);
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json<{ fires: Record<string, unknown>[]; next_cursor: string | null }>();
      seen.push(...body.fires);
      if (body.next_cursor === null) break;
      url = `/v1/orders/${o.id}/fires?limit=2&after=${body.next_cursor}`;
    }
    expect(seen.map((f) => [f.signature, f.decision, f.reason, f.our_amount])).toEqual(
      [
        [sigs[0], "sent", null, "0.05"],
        [sigs[1], "sent", null, "0.03"],
        [sigs[2], "skipped", "max_per_token", null],
        [sigs[3], "sent", null, "0.04"],
        [sigs[4], "skipped", "max_per_day", null],
      ].reverse(),
    );
    expect(seen[4]).toMatchObject({
      side: "buy",
      mint: a,
      followed_wallet: leader.wallet,
      execution_id: rows[0]!.executionId,
      execution_state: "filled",
    });
    // Their size as the trade event gives it: the SOL into the curve (fees excluded) and the tokens out.
    expect(seen[4]!.their_sol).toMatch(/^0\.009\d+$/);
    expect(BigInt(seen[4]!.their_tokens as string)).toBeGreaterThan(0n);
    const other = (await e2e.post(copier.apiKey, "/v1/wallets", {})).json<{ public_key: string }>()
      .public_key;
    const bound = await createSubKey(e2e.app, copier.apiKey, {
      name: "bound",
      scopes: ["read"],
      wallets: [other],
    });
    const hidden = await e2e.get(bound.apiKey, `/v1/orders/${o.id}/fires`);
    expect(hidden.statusCode).toBe(404);
    expect((await e2e.get(copier.apiKey, `/v1/orders/${o.id}/fires?after=nope`)).statusCode).toBe(400);
  });

  it("a claim whose process ended before its send is settled as dropped by the engine's reconciliation", async () => {
    const copier = await e2e.setup({ sol: 10n });
    const followed = Keypair.generate().publicKey.toBase58();
    const o = await placeOrder(e2e, copier.apiKey, { kind: "copy", follow: [followed], amount: "0.05" });
    const row = (await e2e.store.liveOrders()).find((r) => r.id === o.id)!;
    // As a killed process leaves it: claimed longer ago than ORDERS_LEASE_MS (120 s), no execution recorded.
    const claim = await e2e.store.claimCopyFire({
      orderId: o.id,
      accountId: row.accountId,
      signature: "DeadSig1111111111111111111111111111111111111",
      mint: e2e.localnet.admin.createToken().mint,
      side: "buy",
      lamports: 50_000_000n,
      atMs: Date.now() - 200_000,
      perTokenLamports: null,
      perDay: null,
      skip: null,
      trader: followed,
      theirLamports: 100_000_000n,
      theirUnits: 1n,
      sellAmount: null,
    });
    expect(claim.result).toBe("claimed");
    const f = await decided(e2e, o.id, "DeadSig1111111111111111111111111111111111111");
    expect(f).toMatchObject({ outcome: "dropped:process_ended", executionId: null });
    const page = (await e2e.get(copier.apiKey, `/v1/orders/${o.id}/fires`)).json<{ fires: unknown[] }>();
    expect(page.fires).toMatchObject([{ decision: "dropped", reason: "process_ended", execution_id: null }]);
  });

  it("a delayed copy skips (recorded) when the price moved more than max_price_move since the leader's trade", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const leader = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 50n });
    const copier = await e2e.setup({ sol: 10n });
    const o = await placeOrder(e2e, copier.apiKey, {
      kind: "copy",
      follow: [leader.wallet],
      amount: "0.05",
      // Long enough for the mover's confirmed trade below (about 70 ms) to land within it; both copies wait it.
      delay_ms: 1000,
      max_price_move: "2",
    });
    const sig = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.01");
    // Within the delay another wallet moves the price by far more than 2 %.
    await trade(e2e, mover.apiKey, { action: "buy", mint, amount: "5", simulate: false, confirm: true });
    expect((await e2e.store.copyFires(o.id)).find((f) => f.signature === sig)).toBeUndefined();
    expect(await decided(e2e, o.id, sig)).toMatchObject({ outcome: "skipped:max_price_move", lamports: 0n });
    expect(await e2e.tokenBalance(copier.wallet, mint)).toBe(0n);
    // A price that did not move: the next copy is sent after its delay.
    const next = await leaderTrade(e2e, leader.apiKey, "buy", mint, "0.01");
    expect(await decided(e2e, o.id, next)).toMatchObject({ outcome: "filled", lamports: 50_000_000n });
  });
});
