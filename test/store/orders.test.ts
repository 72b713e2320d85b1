/**
 * Orders in the store on SQLite and PostgreSQL (TEST_DATABASE_URL): the open-order cap per key under
 * concurrency, the claim by conditional update (of many concurrent claims from two stores exactly one moves an
 * open order), the lease reclaim after a dead owner (and none of a lease its owner renews), and the order events
 * in the account's outbox. Claims under a spend cap: orders-caps.test.ts.
 */
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import {
  isoNoZone,
  OpenOrderLimitError,
  type NewOrder,
  type LiveCheck,
  type Store,
} from "../../src/store/index.js";
import { newExecution, newWalletRecord } from "../helpers/fixtures.js";
import {
  claimPaths,
  fireClaim,
  liveNow,
  newAccount,
  order,
  orderTestEngines,
  subKey,
  unique,
} from "./orders-fixture.js";

async function tryInsert(store: Store, o: NewOrder, max: number): Promise<boolean> {
  try {
    await store.insertOrder(o, max);
    return true;
  } catch (e) {
    if (e instanceof OpenOrderLimitError) return false;
    throw e;
  }
}

const engines = orderTestEngines("orders");

describe.each(engines)("orders in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("30 concurrent inserts from two stores under a cap of 5 open orders: exactly 5; ended orders do not count", async () => {
    const account = await newAccount(a);
    const ok = await Promise.all(
      Array.from({ length: 30 }, (_, i) => tryInsert(i % 2 ? a : b, order(account), 5)),
    );
    expect(ok.filter(Boolean)).toHaveLength(5);
    const listed = await a.listOrders({ accountId: account, limit: 100 });
    expect(listed).toHaveLength(5);
    const cancelled = await a.transitionOrder({ id: listed[0]!.id, from: "open", to: "cancelled" });
    expect(cancelled?.state).toBe("cancelled");
    expect(await tryInsert(a, order(account), 5)).toBe(true);
    expect(await tryInsert(a, order(account), 5)).toBe(false);
  });

  it("of 20 concurrent claims of one open order from two stores exactly one wins; the attempt and lease are set", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account), 1000);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).transitionOrder({
          id: o.id,
          from: "open",
          version: o.version,
          to: "triggered",
          claim: { owner: `p${i}`, leaseUntilMs: Date.now() + 60_000 },
          triggeredBy: "take_profit",
        }),
      ),
    );
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    const row = await a.findOrder(account, o.id);
    expect(row).toMatchObject({ state: "triggered", attempt: 1, version: 2, triggeredBy: "take_profit" });
    expect(row?.leaseOwner).toBe(won[0]!.leaseOwner);
    // Only the lease holder settles it.
    expect(
      await a.transitionOrder({ id: o.id, from: "triggered", owner: "nobody", to: "filled" }),
    ).toBeUndefined();
    const filled = await a.transitionOrder({
      id: o.id,
      from: "triggered",
      owner: row!.leaseOwner!,
      to: "filled",
      executionId: "exec-1",
    });
    expect(filled).toMatchObject({ state: "filled", executionIds: ["exec-1"], leaseOwner: null });
    // A stale version claims nothing.
    expect(await a.transitionOrder({ id: o.id, from: "open", version: 1, to: "triggered" })).toBeUndefined();
  });

  it("claim and execution record in one commit: of 20 concurrent ones from two stores one writes both, the others nothing", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account), 1000);
    const claim = (i: number) => ({
      id: o.id,
      from: "open" as const,
      version: o.version,
      to: "triggered" as const,
      claim: { owner: `p${i}`, leaseUntilMs: Date.now() + 60_000 },
      triggeredBy: "take_profit",
    });
    const tries = Array.from({ length: 20 }, (_, i) =>
      newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1`, signatures: [`sig${i}`] }),
    );
    const results = await Promise.all(
      tries.map((e, i) => (i % 2 ? a : b).claimOrderRecording(claim(i), e, null)),
    );
    const won = results.flatMap((r, i) => (r === undefined ? [] : [{ r, i }]));
    expect(won).toHaveLength(1);
    const { r, i } = won[0]!;
    expect(r.order).toMatchObject({ state: "triggered", attempt: 1, version: 2, leaseOwner: `p${i}` });
    expect(r.execution).toMatchObject({ id: tries[i]!.id, signatures: [`sig${i}`] });
    expect(await b.findExecutionIdByKey(account, `order:${o.id}:1`)).toBe(tries[i]!.id);
    for (const [j, e] of tries.entries())
      if (j !== i) expect(await a.findExecution(account, e.id)).toBeUndefined();
    const events = await a.listEvents({ apiKeyId: account, after: 0, limit: 100 });
    expect(events.filter((e) => e.type === "order.triggered")).toHaveLength(1);
  });

  it("a fire's claim (its compiled statements) writes what the general transition and insert write", async () => {
    const account = await newAccount(a);
    const [o, p] = [await a.insertOrder(order(account), 1000), await a.insertOrder(order(account), 1000)];
    const t = (id: string, owner: string) => ({
      id,
      from: "open" as const,
      version: 1,
      to: "triggered" as const,
      claim: { owner, leaseUntilMs: 1_900_000_000_000 },
      triggeredBy: "take_profit",
    });
    const over = {
      signatures: ["sigA", "sigB"],
      request: { amount: 5n, mint: "M" },
      lastValidBlockHeight: 77,
      computeUnitPriceMicroLamports: 1234n,
    };
    const e = newExecution(account, "Wallet1111", { ...over, idempotencyKey: `order:${o.id}:1` });
    const fast = await a.claimOrderRecording(t(o.id, "p1"), e, null);
    const general = await b.transitionOrder(t(p.id, "p2"));
    const ref = await b.insertExecution(newExecution(account, "Wallet1111", over));
    const same = <T extends object>(x: T, skip: string[]) =>
      Object.fromEntries(Object.entries(x).filter(([k]) => !skip.includes(k)));
    const orderSkip = ["id", "leaseOwner", "createdAt", "updatedAt"];
    expect(same(fast!.order, orderSkip)).toEqual(same(general!, orderSkip));
    expect(fast!.order).toMatchObject({ leaseOwner: "p1", leaseUntilMs: 1_900_000_000_000, attempt: 1 });
    const execSkip = ["id", "idempotencyKey", "createdAt", "updatedAt"];
    expect(same((await a.findExecution(account, e.id))!, execSkip)).toEqual(same(ref, execSkip));
    expect(await a.findExecutionIdByKey(account, `order:${o.id}:1`)).toBe(e.id);
    // What the claim answers is the row it wrote (PostgreSQL's one statement builds it from its parameters).
    expect(fast!.execution).toEqual(await a.findExecution(account, e.id));
    // The account's event numbers stay one sequence, without a gap or a repeat, across both paths.
    const events = await a.listEvents({ apiKeyId: account, after: 0, limit: 100 });
    expect(events.map((x) => x.id)).toEqual(events.map((_, i) => i + 1));
    // The order's event comes before its execution's, as in the general path.
    const ofFire = events.filter((x) => x.executionId === o.id || x.executionId === e.id).map((x) => x.type);
    expect(ofFire).toEqual(["order.created", "order.triggered", "execution.pending"]);
    const triggered = events.filter((x) => x.type === "order.triggered");
    expect(triggered.map((x) => x.executionId).sort()).toEqual([o.id, p.id].sort());
    expect(same(triggered[0]!, ["id", "executionId", "createdAt"])).toEqual(
      same(triggered[1]!, ["id", "executionId", "createdAt"]),
    );
  });

  it("a claim naming live keys commits only while none is revoked, frozen or changed since the fire read them, on every claim path", async () => {
    const account = await newAccount(a);
    const parent = await subKey(a, account);
    const key = await subKey(a, account, parent.id);
    const wallet = await a.addWallet(account, newWalletRecord(`W${unique()}`), false);
    // What a fire decides on: the key as read now (its chain and their versions) and its wallet.
    const live = (keyId = key.id) => liveNow(b, account, keyId, wallet.id);
    expect((await live()).keys).toEqual([key.id, parent.id, account]);
    const now = Date.now();
    const paths = claimPaths({
      keyId: key.id,
      lamports: 1n,
      capLamports: null,
      nowMs: now,
      sinceMs: now - 86_400_000,
    });
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        "key frozen",
        () => a.updateKey(account, key.id, { frozen: true }),
        () => a.updateKey(account, key.id, { frozen: false }),
      ],
      [
        "parent frozen",
        () => a.updateKey(account, parent.id, { frozen: true }),
        () => a.updateKey(account, parent.id, { frozen: false }),
      ],
      ["account frozen", () => a.setAccountFrozen(account, true), () => a.setAccountFrozen(account, false)],
    ];
    for (const [path, claim] of Object.entries(paths)) {
      for (const [what, change, undo] of changes) {
        const o = await a.insertOrder(order(account, { keyId: key.id }), 1000);
        const t = (l: LiveCheck) => fireClaim(o, l, now + 60_000);
        const e = newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1` });
        const before = await live();
        await change();
        expect(await claim(b, t(before), e), `${path}, ${what}`).toBeUndefined();
        // Read after the change: the flag itself refuses it.
        expect(await claim(b, t(await live()), e), `${path}, ${what}, read after`).toBeUndefined();
        expect(await a.findOrder(account, o.id), `${path}, ${what}`).toMatchObject({
          state: "open",
          attempt: 0,
        });
        expect(await a.findExecution(account, e.id)).toBeUndefined();
        await undo();
        // Decided on the key before the change: refused although the flag is back.
        expect(await claim(b, t(before), e), `${path}, decided before ${what}`).toBeUndefined();
        expect((await claim(b, t(await live()), e))?.order.state, `${path}, after ${what} is undone`).toBe(
          "triggered",
        );
      }
    }
    // A root key's own flag is ignored (only the account freeze stops it), as authorize ignores it.
    await a.updateKey(account, account, { frozen: true });
    const o = await a.insertOrder(order(account), 1000);
    const e = newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1` });
    const t = { id: o.id, from: "open" as const, version: o.version, to: "triggered" as const };
    const rooted = {
      ...t,
      claim: { owner: "p", leaseUntilMs: now + 60_000, live: await live(account) },
      triggeredBy: "x",
    };
    expect((await a.claimOrderRecording(rooted, e, null))?.order.state).toBe("triggered");
    // A revoked key (its tree with it) never claims again.
    const decided = await live();
    await a.revokeKeyTree(account, parent.id, isoNoZone(new Date()));
    const q = await a.insertOrder(order(account, { keyId: key.id }), 1000);
    const f = newExecution(account, "Wallet1111", { idempotencyKey: `order:${q.id}:1` });
    for (const l of [decided, await live()]) {
      const revoked = {
        ...t,
        id: q.id,
        claim: { owner: "p", leaseUntilMs: now + 60_000, live: l },
        triggeredBy: "x",
      };
      expect(await b.claimOrderRecording(revoked, f, null)).toBeUndefined();
    }
    expect(await a.findExecution(account, f.id)).toBeUndefined();
  });

  it("a triggered order whose lease ended is reclaimed once by one of two stores", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account), 1000);
    await a.transitionOrder({
      id: o.id,
      from: "open",
      to: "triggered",
      claim: { owner: "dead", leaseUntilMs: 1 },
    });
    const [ra, rb] = await Promise.all([
      a.reclaimOrders("pa", Date.now(), Date.now() + 60_000, 100),
      b.reclaimOrders("pb", Date.now(), Date.now() + 60_000, 100),
    ]);
    const mine = [...ra, ...rb].filter((r) => r.id === o.id);
    expect(mine).toHaveLength(1);
    expect((await a.findOrder(account, o.id))?.leaseOwner).toBe(mine[0]!.leaseOwner);
  });

  it("a lease renewed by its owner is not reclaimed; another owner cannot renew it; a settled order renews nothing", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account), 1000);
    const now = Date.now();
    await a.transitionOrder({
      id: o.id,
      from: "open",
      to: "triggered",
      claim: { owner: "slow", leaseUntilMs: now - 1 },
    });
    expect(await b.renewOrderLease(o.id, "other", now + 60_000)).toBe(false);
    expect(await b.renewOrderLease(o.id, "slow", now + 60_000)).toBe(true);
    const reclaimed = await b.reclaimOrders("pb", now, now + 60_000, 100);
    expect(reclaimed.map((r) => r.id)).not.toContain(o.id);
    expect(await a.findOrder(account, o.id)).toMatchObject({
      leaseOwner: "slow",
      leaseUntilMs: now + 60_000,
    });
    await a.transitionOrder({ id: o.id, from: "triggered", owner: "slow", to: "filled", error: null });
    expect(await a.renewOrderLease(o.id, "slow", now + 120_000)).toBe(false);
  });

  it("writes order.created / order.triggered / order.failed events in the account's outbox, and lists live orders", async () => {
    const account = await newAccount(a);
    const o = await a.insertOrder(order(account, { wallet: "W1" }), 1000);
    await a.transitionOrder({
      id: o.id,
      from: "open",
      to: "triggered",
      claim: { owner: "p", leaseUntilMs: 9e15 },
    });
    await a.transitionOrder({ id: o.id, from: "triggered", to: "open" });
    await a.transitionOrder({
      id: o.id,
      from: "open",
      to: "triggered",
      claim: { owner: "p", leaseUntilMs: 9e15 },
    });
    await a.transitionOrder({ id: o.id, from: "triggered", to: "failed", error: { detail: "no" } });
    const events = await a.listEvents({ apiKeyId: account, after: 0, limit: 100 });
    expect(events.map((e) => e.type)).toEqual([
      "order.created",
      "order.triggered",
      "order.triggered",
      "order.failed",
    ]);
    expect(events[3]).toMatchObject({
      executionId: o.id,
      wallet: "W1",
      status: "failed",
      error: { detail: "no" },
    });
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    const live = await a.insertOrder(order(account), 1000);
    const ids = (await a.liveOrders()).map((r) => r.id);
    expect(ids).toContain(live.id);
    expect(ids).not.toContain(o.id);
    expect((await a.findOrder(account, o.id))?.attempt).toBe(2);
  });

  it("polls changes since a time, keeps a trailing peak without a version change, finds an attempt's execution", async () => {
    const account = await newAccount(a);
    const since = isoNoZone(new Date(Date.now() - 1));
    const o = await a.insertOrder(order(account, { kind: "trailing_stop", peak: "100" }), 1000);
    await b.setOrderPeak(o.id, "250");
    const row = await a.findOrder(account, o.id);
    expect(row).toMatchObject({ peak: "250", version: 1 });
    await a.transitionOrder({ id: o.id, from: "open", to: "cancelled" });
    // The poll after `since` also sees an order that left the live states (another process cancelled it).
    const changed = (await b.liveOrders(since)).filter((r) => r.id === o.id);
    expect(changed.map((r) => r.state)).toEqual(["cancelled"]);
    expect(await a.findExecutionIdByKey(account, `order:${o.id}:1`)).toBeUndefined();
    await a.insertExecution({
      id: `exec-${o.id}`,
      apiKeyId: account,
      kind: "trade",
      wallet: "Wallet1111",
      wallets: ["Wallet1111"],
      signatures: ["sig"],
      bundleId: null,
      status: "pending",
      confirmationStatus: null,
      request: {},
      response: null,
      error: null,
      timings: null,
      idempotencyKey: `order:${o.id}:1`,
    });
    expect(await b.findExecutionIdByKey(account, `order:${o.id}:1`)).toBe(`exec-${o.id}`);
  });
});
