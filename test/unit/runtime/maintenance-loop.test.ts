/** startMaintenance: runs at once, repeats, reports failures, never overlaps, and stop waits for a pass. */
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS } from "../../../src/domain/execution/idempotency.js";
import { startMaintenance } from "../../../src/runtime/maintenance-loop.js";
import { createLogger } from "../../../src/runtime/logger.js";
import { startServiceMaintenance } from "../../../src/runtime/maintenance.js";
import type { Store } from "../../../src/store/index.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("startMaintenance", () => {
  it("runs every task at start and again each interval; a failing task does not stop the others", async () => {
    const runs: string[] = [];
    const errors: string[] = [];
    let active = 0;
    let overlapped = false;
    const stop = startMaintenance(
      [
        {
          name: "slow",
          run: async () => {
            active += 1;
            overlapped ||= active > 1;
            runs.push("slow");
            await sleep(15);
            active -= 1;
          },
        },
        {
          name: "broken",
          run: async () => {
            throw new Error("boom");
          },
        },
      ],
      { intervalMs: 5, onError: (task) => errors.push(task) },
    );
    for (let i = 0; i < 200 && runs.length < 3; i++) await sleep(5);
    await stop();
    const after = runs.length;
    await sleep(30);
    expect(after).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBe(after);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(new Set(errors)).toEqual(new Set(["broken"]));
    expect(overlapped).toBe(false);
  });
});

describe("startServiceMaintenance", () => {
  it("with reconciliation off (RECONCILE_INTERVAL_MS=0) still purges expired idempotency keys", async () => {
    const purged: number[] = [];
    let reads = 0;
    const store = {
      purgeIdempotencyKeys: async (before: number) => {
        purged.push(before);
        return 0;
      },
    } as unknown as Store;
    const chain = {
      get rpc(): never {
        reads += 1;
        throw new Error("reconciliation must not run");
      },
    };
    const stop = startServiceMaintenance({
      config: { reconcileIntervalMs: 0, reconcileGraceMs: 0 },
      store,
      chain,
      logger: createLogger("silent"),
      clock: () => new Date(100_000_000),
    });
    await sleep(20);
    await stop();
    expect(purged).toEqual([100_000_000 - IDEMPOTENCY_TTL_MS]);
    expect(reads).toBe(0);
  });
});
