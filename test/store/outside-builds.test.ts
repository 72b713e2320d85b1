/**
 * Outside-wallet builds in the store on SQLite and PostgreSQL (TEST_DATABASE_URL, two stores on one database as
 * two processes): a build is taken once of 20 concurrent takes, by its key only, a peek leaves it, and it
 * expires after its window (then the sweep deletes it).
 */
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/store/index.js";
import { storeTestEngines, unique, useTwoStores } from "./two-engines.js";

const engines = storeTestEngines("outside-builds");

describe.each(engines)("outside builds in the store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
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

  it("concurrent builds (one multi-row upsert on PostgreSQL): each kept, a repeat replaces an unsent one only", async () => {
    const hashes = Array.from({ length: 40 }, () => `h-${unique()}`);
    const taken = `h-${unique()}`;
    await a.insertOutsideBuild({ hash: taken, apiKeyId: 3, build: '{"v":"sent"}', expiresAtMs: 10_000 });
    expect(await a.takeOutsideBuild(taken, 3, 1_000)).toBe('{"v":"sent"}');
    // One turn: the distinct hashes, a hash twice (a batch cannot upsert one row twice: its rows then go one at a
    // time, in order, so the later build wins), and the hash already sent (left as it is).
    await Promise.all([
      ...hashes.map((hash, i) =>
        (i % 2 === 0 ? a : b).insertOutsideBuild({
          hash,
          apiKeyId: 3,
          build: `{"v":${i}}`,
          expiresAtMs: 10_000,
        }),
      ),
      a.insertOutsideBuild({ hash: hashes[0]!, apiKeyId: 3, build: '{"v":"again"}', expiresAtMs: 10_000 }),
      a.insertOutsideBuild({ hash: taken, apiKeyId: 3, build: '{"v":"rebuilt"}', expiresAtMs: 10_000 }),
    ]);
    const got = await Promise.all(hashes.map((h) => b.takeOutsideBuild(h, 3, 1_000, true)));
    expect(got).toEqual(hashes.map((_, i) => (i === 0 ? '{"v":"again"}' : `{"v":${i}}`)));
    expect(await b.takeOutsideBuild(taken, 3, 1_000, true)).toBeUndefined();
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
