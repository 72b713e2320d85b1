/**
 * The lease heartbeat (src/domain/orders/lease.ts) across two engines on one store, deterministically: the first
 * engine's fire is held after its send, before it writes the send's outcome (a collaborator, its store, waits on a
 * gate the test opens), for many times its 300 ms lease; a second engine started meanwhile, reclaiming every
 * 50 ms, must not take the order (a reclaim would settle it from a record whose send is still in flight). Once the
 * gate opens, the first fire settles: one sell at the relay, one attempt, filled.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { trade } from "../../helpers/e2e.js";
import { until } from "../../helpers/warm.js";
import { useE2e } from "../../helpers/use-e2e.js";
import type { Store } from "../../../src/store/index.js";
import { startWarmVenues } from "../../../src/domain/watch/setup.js";
import { startOrders } from "../../../src/domain/orders/setup.js";
import { move, placeOrder, settled } from "./orders-fixture.js";

// The app's own engine polls the store once a minute: the order inserted below is the two engines' alone.
const e2e = useE2e({ warm: true, market: true, env: { ORDERS_SYNC_MS: "60000" } });
// Long enough that a busy full suite (the thread beside two fork workers on 2 cores) does not stall this
// process's heartbeat past a whole lease: at 300 ms it did once in a full run on 29 Nov.
const LEASE_MS = 600;

/** The store with its execution updates held until `gate` resolves (the slow step between send and outcome). */
function heldStore(store: Store, gate: Promise<void>): Store {
  const held = new Set(["updateExecution"]);
  return new Proxy(store, {
    get(target, name, receiver) {
      const v = Reflect.get(target, name, receiver) as unknown;
      if (typeof v !== "function") return v;
      const f = v as (...args: unknown[]) => unknown;
      if (!held.has(String(name))) return f.bind(target);
      return async (...args: unknown[]) => {
        await gate;
        return f.apply(target, args);
      };
    },
  });
}

/**
 * An engine of another process: its own warm state over the same chain, `store`, a 300 ms lease, polling every
 * `syncMs` (its reclaim loop renews its own fires' leases too, so the held engine polls rarely: only the
 * heartbeat can keep its lease).
 */
async function engineOn(store: Store, syncMs: number) {
  const warm = startWarmVenues(
    e2e.chain,
    { watchMints: [], watchedMintsMax: 100, stateMaxAgeSlots: 150, watchIdleMs: 600_000 },
    () => undefined,
  )!;
  const engine = await startOrders({
    store,
    chain: e2e.chain,
    vault: e2e.vault,
    venues: warm.venues,
    custody: { clock: () => new Date(), computeUnitLimit: () => 200_000 },
    fees: { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n },
    relayTipLamports: 0n,
    settings: { leaseMs: LEASE_MS, syncMs },
    onError: () => undefined,
  });
  return { engine, close: () => (engine.close(), warm.close()) };
}

describe("the lease heartbeat across two engines", () => {
  it("a fire held for 10 leases keeps its claim: the other engine takes nothing, one sell is sent", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    const mover = await e2e.setup({ sol: 100n });
    await trade(e2e, holder.apiKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
    // Placed and cancelled through the app (its engine drops it), then the same order stored anew.
    const placed = await placeOrder(e2e, holder.apiKey, { kind: "take_profit", mint, percent: 5 });
    const row = (await e2e.store.liveOrders()).find((r) => r.id === placed.id);
    expect(row).toBeDefined();
    const cancel = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${placed.id}`,
      headers: { "x-api-key": holder.apiKey },
    });
    expect(cancel.statusCode).toBe(200);
    const o = await e2e.store.insertOrder({ ...row!, id: `ord_${randomUUID()}`, expiresAt: null }, 1000);

    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = await engineOn(heldStore(e2e.store, gate), 60_000);
    let other: Awaited<ReturnType<typeof engineOn>> | undefined;
    try {
      await until(() => slow.engine.book.get(o.id) !== undefined, "the first engine to hold the order");
      e2e.localnet.admin.resetRelaySignatures();
      await move(e2e, mover.apiKey, "buy", mint, "10");
      await until(
        async () => (await e2e.store.findOrder(o.accountId, o.id))?.state === "triggered",
        "the first engine's claim",
      );
      const claimed = (await e2e.store.findOrder(o.accountId, o.id))!;
      other = await engineOn(e2e.store, 50);
      // Ten leases with the fire held: the second engine's reclaim loop ran every 50 ms meanwhile.
      await new Promise((r) => setTimeout(r, 10 * LEASE_MS));
      const during = (await e2e.store.findOrder(o.accountId, o.id))!;
      expect(during).toMatchObject({
        state: "triggered",
        attempt: 1,
        leaseOwner: claimed.leaseOwner,
        executionIds: claimed.executionIds,
      });
      expect(during.leaseUntilMs!).toBeGreaterThan(claimed.leaseUntilMs!);
      // The mover's buy and the held fire's one sell reached the relay.
      await until(() => e2e.localnet.admin.relaySignatures().length === 2, "the held fire's send");
      open();
      const done = await settled(e2e, holder.apiKey, o.id);
      expect(done).toMatchObject({ state: "filled", attempts: 1 });
      expect(done.execution_ids).toHaveLength(1);
      const sent = e2e.localnet.admin.relaySignatures().map((s) => s.signature);
      expect(new Set(sent).size).toBe(2);
      expect(sent).toHaveLength(2);
    } finally {
      open();
      slow.close();
      other?.close();
    }
  }, 60_000);
});
