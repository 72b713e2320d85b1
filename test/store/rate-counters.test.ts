/** Issue 23: per-key budgets hold across processes: two apps on one PostgreSQL, or on one Redis, share counters. */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisRequestCounter, storeRequestCounter } from "../../src/http/hooks/request-counters.js";
import { openStore } from "../../src/store/index.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const env = { RATE_LIMIT_READS: "4" };

/** Two apps sharing `counter`-backed budgets: the key's fifth read, from either app, is refused. */
async function expectShared(a: TestApp, b: TestApp): Promise<void> {
  const { apiKey } = await a.setup();
  const read = (t: TestApp) =>
    t.app.inject({ method: "GET", url: "/v1/wallets", headers: { "x-api-key": apiKey } });
  const codes = [
    await read(a),
    await read(b),
    await read(a),
    await read(b),
    await read(a),
    await read(b),
  ].map((r) => r.statusCode);
  expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
}

describe.skipIf(TEST_DATABASE_URL === undefined)("budgets on PostgreSQL", () => {
  const schema = freshSchemaName("rate_counters");
  afterAll(async () => dropSchema(TEST_DATABASE_URL!, schema));

  it("two apps on one database share the key's budget (the default counter on PostgreSQL)", async () => {
    const store = await openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema });
    const a = await buildTestApp({ env, store });
    const b = await buildTestApp({
      env,
      store: await openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema }),
    });
    try {
      await expectShared(a, b);
      expect(await storeRequestCounter(store).count("x", 0, 1000)).toBe(1);
      expect(await storeRequestCounter(store).count("x", 0, 1000)).toBe(2);
      expect(await storeRequestCounter(store).count("x", 1000, 1000)).toBe(1);
      // Issue 29: a key and its account in one statement, each with its own count.
      expect(await storeRequestCounter(store).countAll(["x", "y"], 1000, 1000)).toEqual([2, 1]);
      expect(await storeRequestCounter(store).countAll(["y", "x"], 1000, 1000)).toEqual([2, 3]);
    } finally {
      await a.close();
      await b.close();
      await b.store.close();
      await store.close();
    }
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)("budgets on Redis", () => {
  it("two apps (separate SQLite databases) share the key's budget through Redis", async () => {
    const r1 = new Redis(TEST_REDIS_URL!);
    const r2 = new Redis(TEST_REDIS_URL!);
    const prefix = `lt-test:${Date.now()}:${Math.random()}:`;
    const store = await openStore("sqlite::memory:", "./data");
    const a = await buildTestApp({ env, store, requestCounter: redisRequestCounter(r1, prefix) });
    const b = await buildTestApp({ env, store, requestCounter: redisRequestCounter(r2, prefix) });
    try {
      await expectShared(a, b);
      const c = redisRequestCounter(r1, prefix);
      expect(await c.countAll(["x", "y"], 0, 1000)).toEqual([1, 1]);
      expect(await c.countAll(["y", "x"], 0, 1000)).toEqual([2, 2]);
      expect(await c.count("x", 0, 1000)).toBe(3);
    } finally {
      await a.close();
      await b.close();
      await store.close();
      await r1.quit();
      await r2.quit();
    }
  });
});
