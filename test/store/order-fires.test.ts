/**
 * The fire claims of standing (snipe) orders on SQLite and PostgreSQL (TEST_DATABASE_URL): one fire per (order,
 * mint) under concurrent claims from two stores, the hourly cap counted under the order's lock, no fire of an
 * order that is not open, the execution noted on the fire and the order, a refused fire claimed again, a fire
 * failed before its record kept with its reason (final, outside the cap), and a claim left unsettled reconciled once.
 */
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import type { Store } from "../../src/store/index.js";
import { newAccount, order, orderTestEngines } from "./orders-fixture.js";

const engines = orderTestEngines("order-fires");

describe.each(engines)("snipe fire claims in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  const snipe = (account: number) => order(account, { kind: "snipe", side: "buy", mint: "*" });
  const claim = (store: Store, orderId: string, account: number, mint: string, atMs: number, max?: number) =>
    store.claimOrderFire({
      orderId,
      accountId: account,
      mint,
      lamports: 50_000_000n,
      atMs,
      window: max === undefined ? null : { sinceMs: atMs - 3_600_000, max },
    });

  it("of 20 concurrent claims of one (order, mint) from two stores exactly one wins; another mint is its own claim", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => claim(i % 2 ? a : b, o.id, account, "MintA", now)),
    );
    expect(results.filter((r) => r === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r === "fired")).toHaveLength(19);
    expect(await claim(a, o.id, account, "MintB", now)).toBe("claimed");
    await a.setOrderFireExecution(o.id, "MintA", "exec-1", "filled");
    await a.setOrderFireExecution(o.id, "MintA", "exec-1", "filled");
    const fires = await b.orderFires(o.id);
    expect(fires.map((f) => [f.mint, f.executionId, f.lamports])).toEqual([
      ["MintA", "exec-1", 50_000_000n],
      ["MintB", null, 50_000_000n],
    ]);
    expect((await a.findOrder(account, o.id))?.executionIds).toEqual(["exec-1"]);
    // A fire is not a state change: the order stays open at its version; each claimed fire is one event.
    expect(await a.findOrder(account, o.id)).toMatchObject({ state: "open", version: o.version });
    const events = await a.listEvents({ apiKeyId: account, after: 0, limit: 100 });
    expect(events.map((e) => [e.type, e.status, e.executionId])).toEqual([
      ["order.created", "open", o.id],
      ["order.triggered", "open", o.id],
      ["order.triggered", "open", o.id],
    ]);
  });

  it("the hourly cap holds under 10 concurrent claims of distinct mints from two stores; an hour later it frees", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const now = Date.now();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => claim(i % 2 ? a : b, o.id, account, `Mint${i}`, now, 3)),
    );
    expect(results.filter((r) => r === "claimed")).toHaveLength(3);
    expect(results.filter((r) => r === "cap")).toHaveLength(7);
    expect(await claim(a, o.id, account, "MintLater", now + 3_600_001, 3)).toBe("claimed");
  });

  it("a refused fire keeps its row with the refusal: it is claimed again once, and is not counted in the hourly cap", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const now = Date.now();
    expect(await claim(a, o.id, account, "MintR", now, 1)).toBe("claimed");
    const refusal = { rule: "max_sol_per_24h", detail: "over the cap" };
    await a.refuseOrderFire(o.id, "MintR", refusal);
    expect((await b.orderFires(o.id)).map((f) => [f.mint, f.refused, f.executionId])).toEqual([
      ["MintR", refusal, null],
    ]);
    // The refusal used no slot of the cap of 1: another mint can be claimed, and the refused mint again (once).
    const again = await Promise.all(
      Array.from({ length: 6 }, (_, i) => claim(i % 2 ? a : b, o.id, account, "MintR", now + 1, 2)),
    );
    expect(again.filter((r) => r === "claimed")).toHaveLength(1);
    expect(again.filter((r) => r === "fired")).toHaveLength(5);
    expect((await a.orderFires(o.id))[0]).toMatchObject({ mint: "MintR", refused: null });
    await a.setOrderFireExecution(o.id, "MintR", "exec-r", "pending");
    // A fire that recorded an execution is never marked refused, nor claimed again.
    await a.refuseOrderFire(o.id, "MintR", refusal);
    expect((await a.orderFires(o.id))[0]).toMatchObject({ refused: null, executionId: "exec-r" });
    expect(await claim(b, o.id, account, "MintR", now + 2, 5)).toBe("fired");
  });

  it("a fire that failed before its record keeps its reason: final, and not counted in the hourly cap", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const now = Date.now();
    expect(await claim(a, o.id, account, "MintF", now, 1)).toBe("claimed");
    await a.failOrderFire(o.id, "MintF", "failed:insufficient SOL: wallet W has 0.1 SOL");
    expect((await b.orderFires(o.id)).map((f) => [f.mint, f.outcome, f.executionId, f.refused])).toEqual([
      ["MintF", "failed:insufficient SOL: wallet W has 0.1 SOL", null, null],
    ]);
    // Nothing was sent, so the mint is used up but its slot of the cap of 1 is not; a settled fire is not unsettled.
    expect(await claim(b, o.id, account, "MintF", now + 1, 1)).toBe("fired");
    expect(await claim(b, o.id, account, "MintG", now + 1, 1)).toBe("claimed");
    expect(await claim(a, o.id, account, "MintH", now + 1, 1)).toBe("cap");
    expect(await b.reconcileOrderFire(o.id, "MintF", null, "dropped:process_ended")).toBe(false);
    // A fire that recorded an execution is never marked failed.
    await a.setOrderFireExecution(o.id, "MintG", "exec-g", "filled");
    await a.failOrderFire(o.id, "MintG", "failed:late");
    expect((await a.orderFires(o.id))[1]).toMatchObject({
      mint: "MintG",
      executionId: "exec-g",
      outcome: "filled",
    });
  });

  it("an unsettled claim is reconciled once from two stores: from its execution, or dropped", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const t = Date.now() - 60_000;
    for (const mint of ["MintOld1", "MintOld2", "MintOld3"]) await claim(a, o.id, account, mint, t);
    await claim(a, o.id, account, "MintNew", Date.now());
    await a.refuseOrderFire(o.id, "MintOld2", { rule: "max_sol_per_execution", detail: "over" });
    await a.failOrderFire(o.id, "MintOld3", "failed:build");
    const old = await b.unsettledOrderFires(Date.now() - 30_000, 50);
    expect(old.filter((f) => f.orderId === o.id).map((f) => [f.mint, f.accountId])).toEqual([
      ["MintOld1", account],
    ]);
    const won = await Promise.all([
      a.reconcileOrderFire(o.id, "MintOld1", "exec-old", "filled"),
      b.reconcileOrderFire(o.id, "MintOld1", null, "dropped:process_ended"),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const row = (await a.orderFires(o.id)).find((f) => f.mint === "MintOld1");
    const execs = (await a.findOrder(account, o.id))!.executionIds;
    if (won[0]) expect([row?.outcome, row?.executionId, execs]).toEqual(["filled", "exec-old", ["exec-old"]]);
    else expect([row?.outcome, row?.executionId, execs]).toEqual(["dropped:process_ended", null, []]);
    expect(await a.reconcileOrderFire(o.id, "MintOld1", null, "dropped:process_ended")).toBe(false);
  });

  it("pages of fires go newest first by (time, mint), with no row twice", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    const t = Date.now();
    for (const [mint, at] of [
      ["MintA", t],
      ["MintB", t],
      ["MintC", t + 1],
    ] as const)
      expect(await claim(a, o.id, account, mint, at)).toBe("claimed");
    const first = await b.orderFirePage(o.id, { limit: 2 });
    expect(first.map((f) => f.mint)).toEqual(["MintC", "MintB"]);
    const next = await b.orderFirePage(o.id, { limit: 2, after: { atMs: t, key: "MintB" } });
    expect(next.map((f) => f.mint)).toEqual(["MintA"]);
  });

  it("an order that is not open fires nothing", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(snipe(account), 1000);
    await a.transitionOrder({ id: o.id, from: "open", to: "cancelled" });
    expect(await claim(a, o.id, account, "MintA", Date.now())).toBe("closed");
    expect(await a.orderFires(o.id)).toEqual([]);
  });
});
