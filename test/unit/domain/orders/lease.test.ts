/**
 * The heartbeat of a claimed order: while its fire runs the lease is renewed every third of ORDERS_LEASE_MS (a
 * short lease here) to now + the lease, under the engine's owner; nothing is renewed once the timer is cleared.
 * That a renewed lease is not reclaimed by another process is the store's test (test/store/orders.test.ts).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { holdLease } from "../../../../src/domain/orders/lease.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("the lease heartbeat", () => {
  it("renews a slow fire's lease every third of the lease, and stops when the fire settles", async () => {
    vi.useFakeTimers();
    const renewals: [string, string, number][] = [];
    const store = {
      renewOrderLease: async (id: string, owner: string, until: number) => {
        renewals.push([id, owner, until]);
        return true;
      },
    };
    const deps = { store, owner: "p1", clock: () => new Date(), leaseMs: 300, onError: () => undefined };
    const t = holdLease(deps, "ord_1");
    // A fire four times as long as the lease.
    await vi.advanceTimersByTimeAsync(1_200);
    expect(renewals.length).toBe(12);
    for (const [id, owner, until] of renewals) {
      expect([id, owner]).toEqual(["ord_1", "p1"]);
      expect(until).toBeGreaterThan(Date.now() - 1_200 + 300);
    }
    // Each renewal keeps the lease ahead of the clock.
    expect(renewals[renewals.length - 1]![2]).toBe(Date.now() + 300);
    clearInterval(t);
    await vi.advanceTimersByTimeAsync(1_200);
    expect(renewals.length).toBe(12);
  });

  it("a failed renewal is reported, not thrown", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const store = { renewOrderLease: () => Promise.reject(new Error("db down")) };
    const t = holdLease(
      { store, owner: "p1", clock: () => new Date(), leaseMs: 300, onError: (e) => errors.push(e) },
      "ord_1",
    );
    await vi.advanceTimersByTimeAsync(100);
    clearInterval(t);
    expect(errors.map((e) => (e as Error).message)).toEqual(["db down"]);
  });
});
