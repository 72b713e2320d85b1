/**
 * The fire claims of copy orders on SQLite and PostgreSQL (TEST_DATABASE_URL): one copy per (order, followed
 * trade signature) under concurrent claims from two stores, the per-token and per-day caps counted under the
 * order's lock (a buy cut to what is left, then skipped with the reason), no copy by an order that is not open,
 * and a fire that sent nothing giving its SOL back to the caps.
 */
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import type { CopyFireClaim, Store } from "../../src/store/index.js";
import { newAccount, order, orderTestEngines } from "./orders-fixture.js";

const engines = orderTestEngines("copy-fires");

describe.each(engines)("copy fire claims in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  const copy = (account: number) => order(account, { kind: "copy", side: "buy", mint: "*" });
  const claim = (store: Store, c: Partial<CopyFireClaim> & { orderId: string; accountId: number }) =>
    store.claimCopyFire({
      signature: "Sig1",
      mint: "MintA",
      side: "buy",
      lamports: 50_000_000n,
      atMs: Date.now(),
      perTokenLamports: null,
      perDay: null,
      skip: null,
      trader: "Trader1",
      theirLamports: 100_000_000n,
      theirUnits: 7_000_000n,
      sellAmount: null,
      ...c,
    });

  it("of 20 concurrent claims of one followed trade from two stores exactly one wins, with one event", async () => {
    const accountId = await newAccount(a);
    const o = await a.insertOrder(copy(accountId), 1000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claim(i % 2 ? a : b, { orderId: o.id, accountId })),
    );
    expect(results.filter((r) => r.result === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r.result === "fired")).toHaveLength(19);
    await a.settleCopyFire(o.id, "Sig1", "exec-1", "filled");
    const fires = await b.copyFires(o.id);
    expect(fires.map((f) => [f.signature, f.executionId, f.outcome, f.lamports])).toEqual([
      ["Sig1", "exec-1", "filled", 50_000_000n],
    ]);
    expect(await a.findOrder(accountId, o.id)).toMatchObject({ state: "open", executionIds: ["exec-1"] });
    const events = await a.listEvents({ apiKeyId: accountId, after: 0, limit: 100 });
    expect(events.map((e) => e.type)).toEqual(["order.created", "order.triggered"]);
  });

  it("the caps hold under concurrent claims from two stores: cut to what is left, then skipped", async () => {
    const accountId = await newAccount(a);
    const o = await a.insertOrder(copy(accountId), 1000);
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        claim(i % 2 ? a : b, {
          orderId: o.id,
          accountId,
          signature: `Sig${i}`,
          atMs: now,
          perTokenLamports: 120_000_000n,
          perDay: { sinceMs: now - 86_400_000, lamports: 500_000_000n },
        }),
      ),
    );
    const spent = results.reduce((t, r) => t + (r.result === "claimed" ? r.lamports : 0n), 0n);
    expect(spent).toBe(120_000_000n);
    expect(results.filter((r) => r.result === "claimed")).toHaveLength(3);
    expect(results.filter((r) => r.result === "skipped")).toHaveLength(7);
    // Another mint is under the day cap only: 500 - 120 = 380 left.
    const other = await claim(a, {
      orderId: o.id,
      accountId,
      signature: "SigB",
      mint: "MintB",
      lamports: 400_000_000n,
      atMs: now,
      perTokenLamports: null,
      perDay: { sinceMs: now - 86_400_000, lamports: 500_000_000n },
    });
    expect(other).toEqual({ result: "claimed", lamports: 380_000_000n });
    // A fire that sent nothing (refused) gives its SOL back.
    await a.settleCopyFire(o.id, "SigB", null, "refused:max_sol_per_execution");
    const again = await claim(b, {
      orderId: o.id,
      accountId,
      signature: "SigC",
      mint: "MintB",
      lamports: 400_000_000n,
      atMs: now,
      perDay: { sinceMs: now - 86_400_000, lamports: 500_000_000n },
    });
    expect(again).toEqual({ result: "claimed", lamports: 380_000_000n });
  });

  it("a skip is recorded once; an order that is not open copies nothing", async () => {
    const accountId = await newAccount(a);
    const o = await a.insertOrder(copy(accountId), 1000);
    expect(await claim(a, { orderId: o.id, accountId, skip: "max_price_move" })).toEqual({
      result: "skipped",
      reason: "max_price_move",
    });
    expect(await claim(b, { orderId: o.id, accountId })).toEqual({ result: "fired" });
    expect((await a.copyFires(o.id)).map((f) => f.outcome)).toEqual(["skipped:max_price_move"]);
    await a.transitionOrder({ id: o.id, from: "open", to: "cancelled" });
    expect(await claim(a, { orderId: o.id, accountId, signature: "Sig2" })).toEqual({ result: "closed" });
  });

  it("an unsettled claim is reconciled once from two stores: from its execution, or dropped", async () => {
    const accountId = await newAccount(a);
    const o = await a.insertOrder(copy(accountId), 1000);
    const t = Date.now() - 60_000;
    for (const signature of ["SigOld1", "SigOld2"])
      await claim(a, { orderId: o.id, accountId, signature, atMs: t });
    await claim(a, { orderId: o.id, accountId, signature: "SigNew", atMs: Date.now() });
    await a.settleCopyFire(o.id, "SigOld2", null, "refused:max_sol_per_execution");
    const old = await b.unsettledCopyFires(Date.now() - 30_000, 50);
    expect(old.filter((f) => f.orderId === o.id).map((f) => [f.signature, f.accountId])).toEqual([
      ["SigOld1", accountId],
    ]);
    const won = await Promise.all([
      a.reconcileCopyFire(o.id, "SigOld1", "exec-old", "filled"),
      b.reconcileCopyFire(o.id, "SigOld1", null, "dropped:process_ended"),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const row = (await a.copyFires(o.id)).find((f) => f.signature === "SigOld1");
    const execs = (await a.findOrder(accountId, o.id))!.executionIds;
    if (won[0]) expect([row?.outcome, row?.executionId, execs]).toEqual(["filled", "exec-old", ["exec-old"]]);
    else expect([row?.outcome, row?.executionId, execs]).toEqual(["dropped:process_ended", null, []]);
    expect(await a.reconcileCopyFire(o.id, "SigOld1", null, "dropped:process_ended")).toBe(false);
  });

  it("pages keep who traded and both sizes, newest first, by (time, signature), with no row twice", async () => {
    const accountId = await newAccount(a);
    const o = await a.insertOrder(copy(accountId), 1000);
    const t = Date.now();
    // Two fires share a time: the signature orders them, so a page boundary between them loses neither.
    for (const [signature, atMs] of [
      ["SigA", t],
      ["SigB", t],
      ["SigC", t + 1],
      ["SigD", t + 2],
    ] as const)
      await claim(a, { orderId: o.id, accountId, signature, atMs });
    await claim(a, {
      orderId: o.id,
      accountId,
      signature: "SigE",
      atMs: t + 3,
      side: "sell",
      lamports: 0n,
      sellAmount: "25%",
    });
    const seen: string[] = [];
    let after: { atMs: number; key: string } | undefined;
    for (;;) {
      const page = await b.copyFirePage(o.id, { limit: 2, ...(after !== undefined ? { after } : {}) });
      seen.push(...page.map((f) => f.signature));
      const last = page.at(-1);
      if (page.length < 2 || last === undefined) break;
      after = { atMs: last.atMs, key: last.signature };
    }
    expect(seen).toEqual(["SigE", "SigD", "SigC", "SigB", "SigA"]);
    const [sell, buy] = await b.copyFirePage(o.id, { limit: 2 });
    expect(sell).toMatchObject({ side: "sell", trader: "Trader1", theirUnits: 7_000_000n, ourAmount: "25%" });
    expect(buy).toMatchObject({
      side: "buy",
      theirLamports: 100_000_000n,
      ourAmount: "0.05",
      lamports: 50_000_000n,
    });
  });
});
