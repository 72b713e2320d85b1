/** The outside builds over a store: keyed by the message's hash, taken or peeked, swept at most every 10 s. */
import { describe, expect, it } from "vitest";
import {
  BUILD_SWEEP_MS,
  BUILD_TTL_MS,
  createOutsideBuilds,
  type OutsideBuild,
} from "../../../../src/domain/outside/builds.js";
import type { OutsideBuildStore, StoredOutsideBuild } from "../../../../src/store/index.js";

function fakeStore(): OutsideBuildStore & { rows: StoredOutsideBuild[]; sweeps: number[] } {
  const rows: StoredOutsideBuild[] = [];
  const sweeps: number[] = [];
  return {
    rows,
    sweeps,
    async insertOutsideBuild(b) {
      rows.push(b);
    },
    async takeOutsideBuild(hash, apiKeyId, nowMs, peek) {
      const i = rows.findIndex((r) => r.hash === hash && r.apiKeyId === apiKeyId && r.expiresAtMs > nowMs);
      if (i < 0) return undefined;
      const { build } = rows[i]!;
      if (peek !== true) rows.splice(i, 1);
      return build;
    },
    async deleteExpiredOutsideBuilds(nowMs) {
      sweeps.push(nowMs);
      return 0;
    },
  };
}

const build: OutsideBuild = {
  apiKeyId: 1,
  publicKey: "p",
  mint: "m",
  action: "sell",
  request: {},
  details: {},
  spendable: { instructions: [], signatureCount: 1 },
  lastValidBlockHeight: 1,
  computeUnitLimit: 1,
  computeUnitPriceMicroLamports: 0n,
};

describe("outside builds", () => {
  it("keep a build for its window under the message's hash; a peek leaves it, a take removes it", async () => {
    let now = 1_000_000;
    const store = fakeStore();
    const builds = createOutsideBuilds(store, () => now);
    const m = new Uint8Array([1, 2, 3]);
    await builds.remember(m, build);
    expect(store.rows[0]).toMatchObject({ apiKeyId: 1, expiresAtMs: now + BUILD_TTL_MS });
    expect(store.rows[0]!.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await builds.take(2, m)).toBeUndefined();
    expect(await builds.take(1, m, true)).toEqual(build);
    expect(await builds.take(1, m)).toEqual(build);
    expect(await builds.take(1, m)).toBeUndefined();
    now += 1;
    expect(await builds.take(1, new Uint8Array([1, 2, 4]))).toBeUndefined();
  });

  it("sweeps expired builds at most once per sweep interval", async () => {
    let now = 1_000_000;
    const store = fakeStore();
    const builds = createOutsideBuilds(store, () => now);
    for (let i = 0; i < 5; i++) await builds.remember(new Uint8Array([i]), build);
    now += BUILD_SWEEP_MS;
    await builds.remember(new Uint8Array([9]), build);
    expect(store.sweeps).toEqual([1_000_000, 1_000_000 + BUILD_SWEEP_MS]);
  });
});
