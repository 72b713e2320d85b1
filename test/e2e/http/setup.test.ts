/** POST /v1/laser/setup: response shape, no-store, per-IP rate limit (database, Redis, across instances). */
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisRateLimiter } from "../../../src/http/hooks/rate-limiters.js";
import { openStore } from "../../../src/store/index.js";
import { buildTestApp, nextTestIp, type TestApp } from "../../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL, TEST_REDIS_URL } from "../../helpers/pg.js";
import bs58 from "bs58";
import { Keypair } from "@solana/web3.js";

function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function callSetup(t: TestApp, ip: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: ip, headers });
}

// One IP's limit is shared by both instances: a's call uses it up for b, and after the window b's for a.
async function expectOneLimitAcross(
  a: TestApp,
  b: TestApp,
  c: ReturnType<typeof manualClock>,
): Promise<void> {
  const ip = nextTestIp();
  expect((await callSetup(a, ip)).statusCode).toBe(200);
  expect((await callSetup(b, ip)).statusCode).toBe(429);
  c.advance(5000);
  expect((await callSetup(b, ip)).statusCode).toBe(200);
  expect((await callSetup(a, ip)).statusCode).toBe(429);
}

describe("setup", () => {
  it("returns a key and a default wallet whose secret matches, with Cache-Control: no-store", async () => {
    const t = await buildTestApp();
    try {
      const res = await callSetup(t, nextTestIp());
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const body = res.json<Record<string, string>>();
      expect(Object.keys(body).sort()).toEqual(["api_key", "wallet_private_key", "wallet_public_key"]);
      const kp = Keypair.fromSecretKey(bs58.decode(body.wallet_private_key as string));
      expect(kp.publicKey.toBase58()).toBe(body.wallet_public_key);
      expect(bs58.decode((body.api_key as string).slice(3)).length).toBe(32);
      // key stored only as a hash
      const stored = await t.store.findApiKeyByHash(t.vault.hashApiKey(body.api_key as string));
      expect(stored?.keyHash).not.toContain(body.api_key);
      const list = await t.app.inject({
        method: "GET",
        url: "/v1/wallets",
        headers: { "x-api-key": body.api_key as string },
      });
      expect(list.json()).toEqual([
        expect.objectContaining({ public_key: body.wallet_public_key, is_default: true, status: "active" }),
      ]);
    } finally {
      await t.close();
    }
  });

  it("ignores a body and works with no content type", async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/laser/setup",
        remoteAddress: nextTestIp(),
        payload: { anything: 1 },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("limits one call per IP per 5 s (injected clock)", async () => {
    const c = manualClock();
    const t = await buildTestApp({ clock: c.clock });
    try {
      const ip = nextTestIp();
      expect((await callSetup(t, ip)).statusCode).toBe(200);
      c.advance(4999);
      const limited = await callSetup(t, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        detail: expect.stringContaining("5 seconds"),
        code: "setup.rate_limited",
      });
      expect((await callSetup(t, nextTestIp())).statusCode).toBe(200);
      c.advance(1);
      expect((await callSetup(t, ip)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("uses X-Forwarded-For only when TRUST_PROXY says so", async () => {
    const c = manualClock();
    const untrusted = await buildTestApp({ clock: c.clock });
    const trusted = await buildTestApp({ clock: c.clock, env: { TRUST_PROXY: "true" } });
    try {
      const proxy = nextTestIp();
      // untrusted: both calls come from the proxy socket address, whatever the header says
      expect((await callSetup(untrusted, proxy, { "x-forwarded-for": "1.1.1.1" })).statusCode).toBe(200);
      expect((await callSetup(untrusted, proxy, { "x-forwarded-for": "2.2.2.2" })).statusCode).toBe(429);
      // trusted: the forwarded client addresses count
      expect((await callSetup(trusted, proxy, { "x-forwarded-for": "3.3.3.3" })).statusCode).toBe(200);
      expect((await callSetup(trusted, proxy, { "x-forwarded-for": "4.4.4.4" })).statusCode).toBe(200);
      expect((await callSetup(trusted, proxy, { "x-forwarded-for": "4.4.4.4" })).statusCode).toBe(429);
    } finally {
      await untrusted.close();
      await trusted.close();
    }
  });

  const pgUrl = TEST_DATABASE_URL;
  describe.skipIf(pgUrl === undefined)("on PostgreSQL", () => {
    const schema = freshSchemaName("setup");
    afterAll(async () => {
      if (pgUrl !== undefined) await dropSchema(pgUrl, schema);
    });

    it("two app instances on one PostgreSQL share the limit", async () => {
      const c = manualClock();
      const storeA = await openStore(pgUrl, "./data", { pgSchema: schema });
      const storeB = await openStore(pgUrl, "./data", { pgSchema: schema });
      const a = await buildTestApp({ store: storeA, clock: c.clock });
      const b = await buildTestApp({ store: storeB, clock: c.clock });
      try {
        await expectOneLimitAcross(a, b, c);
        // concurrent first calls from one IP on both instances: exactly one wins
        const ip2 = nextTestIp();
        const codes = await Promise.all([a, b, a, b].map((t) => callSetup(t, ip2).then((r) => r.statusCode)));
        expect(codes.filter((s) => s === 200)).toHaveLength(1);
      } finally {
        await a.close();
        await b.close();
        await storeA.close();
        await storeB.close();
      }
    });
  });

  const redisUrl = TEST_REDIS_URL;
  describe.skipIf(redisUrl === undefined)("with Redis", () => {
    it("the Redis limiter holds across two instances and honours the injected clock", async () => {
      const c = manualClock(Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 1e9));
      const r1 = new Redis(redisUrl as string);
      const r2 = new Redis(redisUrl as string);
      const prefix = `lasertrade-test:${freshSchemaName()}:`;
      const a = await buildTestApp({ clock: c.clock, rateLimiter: redisRateLimiter(r1, prefix) });
      const b = await buildTestApp({ clock: c.clock, rateLimiter: redisRateLimiter(r2, prefix) });
      try {
        await expectOneLimitAcross(a, b, c);
      } finally {
        await a.close();
        await b.close();
        r1.disconnect();
        r2.disconnect();
      }
    });
  });
});
