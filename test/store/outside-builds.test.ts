/**
 * Outside-wallet builds in the store on SQLite and PostgreSQL (TEST_DATABASE_URL, two stores on one database as
 * two processes): a build is taken once of 20 concurrent takes, by its key only, a peek leaves it, and it
 * expires after its window (then the sweep deletes it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../src/store/index.js";
import { storeTestEngines, unique } from "./two-engines.js";

const engines = storeTestEngines("outside-builds");

describe.each(engines)("outside builds in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    a = await engine.open();
    b = engine.twoStores ? await engine.open() : a;
  });
  afterAll(async () => {
    await a.close();
    if (b !== a) await b.close();
    await engine.cleanup();
  });

  it("of 20 concurrent takes from two stores exactly one gets the build; another key never does", async () => {
    const hash = `h-${unique()}`;
    await a.insertOutsideBuild({ hash, apiKeyId: 1, build: '{"x":1}', expiresAtMs: 10_000 });
    expect(await b.takeOutsideBuild(hash, 2, 1_000)).toBeUndefined();
    expect(await b.takeOutsideBuild(hash, 1, 1_000, true)).toBe('{"x":1}');
    const taken = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).takeOutsideBuild(hash, 1, 1_000)),
    );
    expect(taken.filter((t) => t !== undefined)).toEqual(['{"x":1}']);
    expect(await a.takeOutsideBuild(hash, 1, 1_000, true)).toBeUndefined();
    // A taken build is not replaced by building the same message again.
    await b.insertOutsideBuild({ hash, apiKeyId: 1, build: '{"x":2}', expiresAtMs: 20_000 });
    expect(await a.takeOutsideBuild(hash, 1, 1_000)).toBeUndefined();
  });

  it("expires after its window and the sweep deletes it", async () => {
    const hash = `h-${unique()}`;
    await a.insertOutsideBuild({ hash, apiKeyId: 1, build: "{}", expiresAtMs: 5_000 });
    expect(await b.takeOutsideBuild(hash, 1, 5_000, true)).toBeUndefined();
    expect(await b.deleteExpiredOutsideBuilds(5_000)).toBeGreaterThanOrEqual(1);
    await a.insertOutsideBuild({ hash, apiKeyId: 1, build: "{}", expiresAtMs: 9_000 });
    expect(await b.takeOutsideBuild(hash, 1, 8_999)).toBe("{}");
  });
});
