/**
 * Short, seeded form of `npm run fuzz` (issue 9.5): 2 000 generated requests across every route of the
 * OpenAPI document against the localnet-backed app. No 5xx but documented upstream 502s, every 4xx with a
 * `detail`, no secret in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFuzzFixture, type FuzzFixture } from "./fixture.js";
import { runFuzz } from "./run.js";

describe("fuzz (short form)", () => {
  let f: FuzzFixture;
  beforeAll(async () => {
    f = await startFuzzFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it("2 000 seeded cases: no 5xx, every 4xx has a detail, no secret in the logs", async () => {
    const report = await runFuzz(f, { runs: 2_000, seed: 9005 });
    expect(report.violations).toEqual([]);
    expect(report.secretsFound).toEqual([]);
    expect(report.total.cases).toBe(2_000);
    // Every route of the document was reached, and the funded key got valid bodies through to execution.
    for (const [route, t] of Object.entries(report.byRoute)) expect(t.cases, route).toBeGreaterThan(0);
    expect(report.total.s2xx).toBeGreaterThan(100);
    expect(report.logLinesScanned).toBeGreaterThan(4_000);
  });
});
