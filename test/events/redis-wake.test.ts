/**
 * Redis pub/sub as the cross-process wake-up (REDIS_URL): the message rules (pure), two links on one Redis,
 * and two apps on one PostgreSQL with REDIS_URL set — an event written through one reaches a stream held by the
 * other, carried by Redis (the stream's periodic re-read is turned off; LISTEN is not used with Redis).
 * The Redis parts skip without TEST_REDIS_URL (and the app part without TEST_DATABASE_URL).
 */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { createWakeBus } from "../../src/store/events/kysely-events.js";
import { parseWakeMessage, REDIS_EVENTS_CHANNEL, redisWake } from "../../src/store/events/redis-wake.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/pg.js";
import { openSse } from "./sse-reader.js";

describe("Redis wake-up messages", () => {
  const msg = (o: unknown) => JSON.stringify(o);
  it("takes another process's wake-up of this namespace, with its account or for any account", () => {
    expect(parseWakeMessage(msg({ ns: "db/public", key: 7, origin: "b" }), "db/public", "a")).toEqual({
      key: 7,
    });
    expect(parseWakeMessage(msg({ ns: "db/public", key: null, origin: "b" }), "db/public", "a")).toEqual({
      key: undefined,
    });
  });
  it("issue 29: a key-change hint is told apart from an event wake-up", () => {
    expect(
      parseWakeMessage(msg({ ns: "db/public", key: 7, origin: "b", topic: "keys" }), "db/public", "a"),
    ).toEqual({ key: 7, keys: true });
  });

  it("ignores its own, another namespace's and malformed messages", () => {
    expect(parseWakeMessage(msg({ ns: "db/public", key: 7, origin: "a" }), "db/public", "a")).toBeUndefined();
    expect(parseWakeMessage(msg({ ns: "db/other", key: 7, origin: "b" }), "db/public", "a")).toBeUndefined();
    expect(parseWakeMessage("not json", "db/public", "a")).toBeUndefined();
    expect(parseWakeMessage("null", "db/public", "a")).toBeUndefined();
  });
});

/** Resolves with the first value `bus` emits that passes `pred`. */
function nextWake(bus: ReturnType<typeof createWakeBus>, pred: (k: number | undefined) => boolean) {
  return new Promise<number | undefined>((resolve) => {
    const off = bus.on((k) => {
      if (!pred(k)) return;
      off();
      resolve(k);
    });
  });
}

/** Publishes `probe` through `from` until `bus` hears it (a fresh subscription may miss the first ones). */
async function subscribed(
  from: ReturnType<typeof redisWake>,
  bus: ReturnType<typeof createWakeBus>,
  probe: number,
): Promise<void> {
  const heard = nextWake(bus, (k) => k === probe);
  let done = false;
  void heard.then(() => (done = true));
  while (!done) {
    from.publish(probe);
    await Promise.race([heard, new Promise((r) => setTimeout(r, 200))]);
  }
}

describe.skipIf(TEST_REDIS_URL === undefined)("Redis wake-up links", () => {
  it("a publication reaches the other links of the namespace, not the publisher itself, not another namespace", async () => {
    const url = TEST_REDIS_URL!;
    const ns = `test/${freshSchemaName("rw")}`;
    // One client per link, as one per process.
    const clients = [new Redis(url), new Redis(url), new Redis(url)];
    const [a, b, other] = [
      redisWake(clients[0]!, ns),
      redisWake(clients[1]!, ns),
      redisWake(clients[2]!, `${ns}x`),
    ];
    const [busA, busB] = [createWakeBus(), createWakeBus()];
    const seenByA: (number | undefined)[] = [];
    busA.on((k) => seenByA.push(k));
    const stops = [a.listen(busA), b.listen(busB)];
    try {
      // Subscriptions are in place once a probe of each side reached the other.
      await subscribed(b, busA, 1_000_001);
      await subscribed(a, busB, 1_000_002);
      seenByA.length = 0;
      other.publish(9);
      a.publish(7);
      expect(await nextWake(busB, (k) => k === 7)).toBe(7);
      // B answers after it saw A's 7: Redis delivers in order, so A's own 7 or the other namespace's 9
      // would have reached A before B's 8.
      b.publish(8);
      await nextWake(busA, (k) => k === 8);
      expect(seenByA.filter((k) => k !== 1_000_001)).toEqual([8]);
    } finally {
      for (const s of stops) await s();
      stops.length = 0;
    }
    // Issue 29: key-change hints go to the keys bus of the other links, not to their event bus.
    const [keysA, keysB] = [createWakeBus(), createWakeBus()];
    const eventsB: (number | undefined)[] = [];
    const busB2 = createWakeBus();
    busB2.on((k) => eventsB.push(k));
    stops.push(a.listen(createWakeBus(), keysA), b.listen(busB2, keysB));
    try {
      const heard = nextWake(keysB, (k) => k === 42);
      let done = false;
      void heard.then(() => (done = true));
      while (!done) {
        a.publishKeys(42);
        await Promise.race([heard, new Promise((r) => setTimeout(r, 200))]);
      }
      expect(await heard).toBe(42);
      expect(eventsB).toEqual([]);
    } finally {
      for (const s of stops) await s();
      await Promise.all(clients.map((c) => c.quit()));
    }
  });
});

describe.skipIf(TEST_REDIS_URL === undefined || TEST_DATABASE_URL === undefined)(
  "two apps on one PostgreSQL with REDIS_URL",
  () => {
    const schema = freshSchemaName("redis");
    const stores: Store[] = [];
    const clients: Redis[] = [];
    afterAll(async () => {
      for (const s of stores) await s.close();
      await Promise.all(clients.map((c) => c.quit()));
      await dropSchema(TEST_DATABASE_URL!, schema);
    });

    it("an event written by one process reaches a stream on the other, through Redis", async () => {
      // Each store on a Redis client of its own, as each process has one.
      const open = () => {
        const redis = new Redis(TEST_REDIS_URL!);
        clients.push(redis);
        return openStore(TEST_DATABASE_URL!, "./data", { pgSchema: schema, redis });
      };
      const writer = await open();
      stores.push(writer);
      const reader = await open();
      stores.push(reader);
      const vault = testVault();
      // No periodic re-read: only a wake-up can bring the event to the stream.
      const app = await buildApp({
        config: loadConfig({}),
        store: reader,
        vault,
        clock: () => new Date(),
        rateLimiter: storeRateLimiter(reader),
        events: { pollMs: 3_600_000 },
      });
      const spy = new Redis(TEST_REDIS_URL!);
      try {
        const base = await app.listen({ port: 0, host: "127.0.0.1" });
        const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
        const { api_key, wallet_public_key } = res.json<{ api_key: string; wallet_public_key: string }>();
        const keyId = (await reader.findApiKeyByHash(vault.hashApiKey(api_key)))!.id;
        const published = new Promise<unknown>((resolve) => {
          spy.on("message", (_c: string, text: string) => {
            const m = JSON.parse(text) as { ns: string; key: number };
            if (m.ns.endsWith(`/${schema}`) && m.key === keyId) resolve(m);
          });
        });
        await spy.subscribe(REDIS_EVENTS_CHANNEL);
        const s = await openSse(`${base}/v1/events`, { "x-api-key": api_key });
        try {
          await s.waitForComment((c) => c.includes("connected"));
          const id = await recordPending(writer, {
            apiKeyId: keyId,
            kind: "trade",
            wallet: wallet_public_key,
            signatures: ["s"],
            request: {},
            lastValidBlockHeight: 1,
          });
          await published;
          const [m] = await s.waitForMessages(1);
          expect(JSON.parse(m!.data)).toMatchObject({ id: 1, type: "execution.pending", execution_id: id });
        } finally {
          s.close();
        }
      } finally {
        spy.disconnect();
        await app.close();
      }
    });
  },
);
