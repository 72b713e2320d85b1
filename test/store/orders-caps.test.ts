/**
 * An order's claim under its key's 24 h spend cap, on SQLite and PostgreSQL (TEST_DATABASE_URL): a reservation
 * over the cap writes neither the claim nor the execution (both claim shapes: the general transition's, and a
 * fire's, which PostgreSQL writes as one statement after the keys' locks), and concurrent claims of one capped
 * key from two stores admit exactly what fits.
 */
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import { SpendCapExceededError, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { newAccount, order, orderTestEngines } from "./orders-fixture.js";

const engines = orderTestEngines("orders-caps");

describe.each(engines)("orders under a spend cap on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("a claim whose execution's reservation is over its cap writes neither: the order stays open", async () => {
    // Both claim shapes: the general transition's, and a fire's (its trigger named: PostgreSQL's one statement
    // after the keys' locks).
    for (const triggeredBy of [undefined, "take_profit"]) {
      const account = await newAccount(a);
      const o = await a.insertOrder(order(account), 1000);
      const e = newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1` });
      const now = Date.now();
      const over = { keyId: account, lamports: 2n, capLamports: 1n, nowMs: now, sinceMs: now - 86_400_000 };
      const t = { id: o.id, from: "open" as const, version: o.version, to: "triggered" as const };
      const claimed = {
        ...t,
        claim: { owner: "p", leaseUntilMs: now + 60_000 },
        ...(triggeredBy !== undefined ? { triggeredBy } : {}),
      };
      const err = await a.claimOrderRecording(claimed, e, over).catch((x: unknown) => x);
      expect(err).toBeInstanceOf(SpendCapExceededError);
      expect(await a.findOrder(account, o.id)).toMatchObject({ state: "open", version: 1, attempt: 0 });
      expect(await a.findExecution(account, e.id)).toBeUndefined();
      expect(await a.spentLamports(account, 0)).toBe(0n);
      const fits = { ...over, capLamports: 2n };
      const r = await b.claimOrderRecording(claimed, e, fits);
      expect(r?.order.state).toBe("triggered");
      expect(r?.execution).toEqual(await a.findExecution(account, e.id));
      expect(await a.spentLamports(account, 0)).toBe(2n);
      // The cap now full: the next reservation against it is refused.
      const p = await a.insertOrder(order(account), 1000);
      const f = newExecution(account, "Wallet1111", { idempotencyKey: `order:${p.id}:1` });
      const next = { ...claimed, id: p.id, version: p.version };
      expect(await b.claimOrderRecording(next, f, fits).catch((x: unknown) => x)).toBeInstanceOf(
        SpendCapExceededError,
      );
    }
  });

  it("fires' claims of one capped key from two stores at once: the cap admits exactly what fits", async () => {
    const account = await newAccount(a);
    const now = Date.now();
    const cap = { keyId: account, lamports: 1n, capLamports: 5n, nowMs: now, sinceMs: now - 86_400_000 };
    const orders = await Promise.all(Array.from({ length: 12 }, () => a.insertOrder(order(account), 1000)));
    const results = await Promise.all(
      orders.map((o, i) =>
        (i % 2 === 0 ? a : b)
          .claimOrderRecording(
            {
              id: o.id,
              from: "open",
              version: o.version,
              to: "triggered",
              claim: { owner: "p", leaseUntilMs: now + 60_000 },
              triggeredBy: "take_profit",
            },
            newExecution(account, "Wallet1111", { idempotencyKey: `order:${o.id}:1` }),
            cap,
          )
          .then(
            (r) => r?.order.state,
            (e: unknown) => (e instanceof SpendCapExceededError ? "cap" : e),
          ),
      ),
    );
    expect(results.filter((r) => r === "triggered")).toHaveLength(5);
    expect(results.filter((r) => r === "cap")).toHaveLength(7);
    expect(await a.spentLamports(account, 0)).toBe(5n);
  });
});
