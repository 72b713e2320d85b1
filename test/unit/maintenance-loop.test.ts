/** startMaintenance: runs at once, repeats, reports failures, never overlaps, and stop waits for a pass. */
import { describe, expect, it } from "vitest";
import { startMaintenance } from "../../src/domain/maintenance-loop.js";

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
