/** Route figures: windows, percentiles, tips paid by winners only, demotion after failures in a row. */
import { describe, expect, it } from "vitest";
import { percentile, RouteStats, windowOf } from "../../../../src/chain/landing/route-stats.js";
import { parseBehaviour } from "../../../../localnet/server/landing-routes.js";

describe("route figures", () => {
  it("percentile is nearest-rank; null when empty", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
  });

  it("a window counts sends, landings, errors and the winners' tips", () => {
    const w = windowOf([
      { route: "a", atMs: 0, accepted: true, landed: true, slotsToLand: 2, tipLamports: 1_000n },
      { route: "a", atMs: 0, accepted: true, landed: false, tipLamports: 1_000n },
      { route: "a", atMs: 0, accepted: false, landed: false, error: "http_429", tipLamports: 1_000n },
    ]);
    expect(w).toEqual({
      sent: 3,
      landed: 1,
      landing_rate: 1 / 3,
      slots_to_land_p50: 2,
      slots_to_land_p90: 2,
      errors: 1,
      tips_paid_lamports: "1000",
    });
  });

  it("keeps 1 h and 24 h apart", () => {
    let now = 0;
    const s = new RouteStats({ now: () => now });
    s.record({ route: "a", atMs: 0, accepted: true, landed: true, slotsToLand: 1, tipLamports: 5n });
    now = 2 * 3_600_000;
    s.record({ route: "a", atMs: now, accepted: true, landed: false, tipLamports: 5n });
    expect(s.windows("a")["1h"].sent).toBe(1);
    expect(s.windows("a")["24h"].sent).toBe(2);
  });

  it("demotes a route after its failures in a row, says why, and lets it back after the pause", () => {
    let now = 0;
    const s = new RouteStats({ now: () => now, demoteAfter: 3, demoteMs: 1_000 });
    const fail = () =>
      s.record({ route: "a", atMs: now, accepted: false, landed: false, error: "timeout", tipLamports: 0n });
    fail();
    fail();
    expect(s.demotion("a").demoted).toBe(false);
    // Losing a race to another route is not a failure.
    s.record({ route: "a", atMs: now, accepted: true, landed: false, tipLamports: 0n });
    fail();
    expect(s.demotion("a")).toEqual({
      demoted: true,
      reason: "the last 3 sends failed (timeout)",
      until_ms: 1_000,
    });
    now = 1_000;
    expect(s.demotion("a").demoted).toBe(false);
  });
});

describe("localnet route behaviour", () => {
  const base = { dropRate: 0, slotDelay: [0, 0] as const, latencyMs: 0, minTipLamports: 1n };
  it("takes valid settings and refuses bad ones with a useful message", () => {
    expect(parseBehaviour({ drop_rate: 0.25, slot_delay: [1, 3] }, base)).toMatchObject({
      dropRate: 0.25,
      slotDelay: [1, 3],
    });
    expect(() => parseBehaviour({ drop_rate: 2 }, base)).toThrow("drop_rate must be a number in [0, 1]");
    expect(() => parseBehaviour({ slot_delay: [3, 1] }, base)).toThrow(
      "slot_delay must be [min, max], integers 0..150, min <= max",
    );
    expect(() => parseBehaviour({ latency_ms: -1 }, base)).toThrow("latency_ms must be an integer 0..10000");
  });
});
