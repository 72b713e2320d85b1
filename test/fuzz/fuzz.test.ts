/**
 * Short, seeded form of `npm run fuzz` (issue 9.5): 2 000 generated requests across every route of the
 * OpenAPI document against the localnet-backed app. No 5xx but documented upstream 502s, every 4xx with a
 * `detail`, no secret in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { startFuzzFixture, type FuzzFixture } from "./fixture.js";
import { runFuzz, type FuzzReport } from "./run.js";

/** The properties every short run must show, and that it reached every route. */
function expectClean(report: FuzzReport, runs: number): void {
  expect(report.violations).toEqual([]);
  expect(report.secretsFound).toEqual([]);
  expect(report.total.cases).toBe(runs);
  for (const [route, t] of Object.entries(report.byRoute)) expect(t.cases, route).toBeGreaterThan(0);
}

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
    expectClean(report, 2_000);
    // The funded key got valid bodies through to execution, and every line the app logged was scanned.
    // (3 500: with the key, policy and activity routes of issue 19 in the mix, fewer cases reach execution logs)
    expect(report.total.s2xx).toBeGreaterThan(100);
    expect(report.logLinesScanned).toBeGreaterThan(3_500);
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)("fuzz (short form, PostgreSQL)", () => {
  const schema = freshSchemaName("fuzz");
  let f: FuzzFixture;
  beforeAll(async () => {
    f = await startFuzzFixture({ databaseUrl: TEST_DATABASE_URL!, pgSchema: schema });
  });
  afterAll(async () => {
    await f?.close();
    await dropSchema(TEST_DATABASE_URL!, schema);
  });

  it("500 seeded cases on PostgreSQL: the same properties", async () => {
    expectClean(await runFuzz(f, { runs: 500, seed: 9006 }), 500);
  });
});
