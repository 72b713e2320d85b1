/**
 * Issue 29, finding 7, on SQLite and PostgreSQL: the endpoint cap per account holds under concurrent creations
 * (counted in the insert's transaction), and GET /v1/webhooks pages by `limit` / `after` with a Link header.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { EVENTS } from "../../src/core/errors.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, WebhookCapReachedError, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const vault = testVault();

function suite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`webhook cap and pages on ${name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    beforeAll(async () => {
      store = await open();
      app = await buildApp({
        store,
        vault,
        clock: () => new Date(),
        rateLimiter: storeRateLimiter(store),
        config: loadConfig({ MAX_WEBHOOKS_PER_ACCOUNT: "5" }),
      });
    });
    afterAll(async () => {
      await app?.close();
      await store?.close();
      await cleanup();
    });

    async function setup(): Promise<{ apiKey: string; keyId: number }> {
      const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
      const apiKey = res.json<{ api_key: string }>().api_key;
      const key = await store.findApiKeyByHash(vault.hashApiKey(apiKey));
      return { apiKey, keyId: key!.id };
    }
    const call = (apiKey: string, method: "GET" | "POST", url: string, payload?: Record<string, unknown>) =>
      app.inject({
        method,
        url,
        headers: { "x-api-key": apiKey },
        ...(payload !== undefined ? { payload } : {}),
      });
    const record = (apiKeyId: number, n: number) => ({
      id: `wh_race_${apiKeyId}_${n}`,
      apiKeyId,
      url: "https://example.com/hook",
      types: ["*"],
      wallets: null,
      secret: vault.encryptSecret(Buffer.from("s"), `webhook:wh_race_${apiKeyId}_${n}`),
      cursor: 0,
      createdAt: "2026-01-01T00:00:00.000",
    });

    it("counts in the insert's transaction: 12 concurrent creations against a cap of 4 make exactly 4", async () => {
      const a = await setup();
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, n) => store.insertWebhook(record(a.keyId, n), 4)),
      );
      expect(results.filter((r) => r.status === "fulfilled").length).toBe(4);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused.length).toBe(8);
      for (const r of refused) expect(r.reason).toBeInstanceOf(WebhookCapReachedError);
      expect((await store.listWebhooks(a.keyId)).length).toBe(4);
      // Another account is not counted against this one.
      const b = await setup();
      await expect(store.insertWebhook(record(b.keyId, 0), 4)).resolves.toMatchObject({ apiKeyId: b.keyId });
    });

    it("POST past MAX_WEBHOOKS_PER_ACCOUNT is a 409; deleting one makes room", async () => {
      const a = await setup();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(a.apiKey, "POST", "/v1/webhooks", {
          url: `https://e.example/${i}`,
          types: ["*"],
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json<{ id: string }>().id);
      }
      const over = await call(a.apiKey, "POST", "/v1/webhooks", { url: "https://e.example/x", types: ["*"] });
      expect(over.statusCode).toBe(409);
      expect(over.json()).toEqual({
        code: "events.webhook_limit",
        detail: EVENTS.webhookLimit(5),
        max_webhooks: 5,
      });
      await app.inject({
        method: "DELETE",
        url: `/v1/webhooks/${ids[0]}`,
        headers: { "x-api-key": a.apiKey },
      });
      const again = await call(a.apiKey, "POST", "/v1/webhooks", {
        url: "https://e.example/y",
        types: ["*"],
      });
      expect(again.statusCode).toBe(201);
    });

    it("GET /v1/webhooks pages oldest first with limit/after and a Link header to the next page", async () => {
      const a = await setup();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(a.apiKey, "POST", "/v1/webhooks", {
          url: `https://p.example/${i}`,
          types: ["*"],
        });
        created.push(res.json<{ id: string }>().id);
      }
      const all = await call(a.apiKey, "GET", "/v1/webhooks");
      expect(all.headers.link).toBeUndefined();
      expect(all.json<{ webhooks: { id: string; url: string }[] }>().webhooks.map((w) => w.url)).toEqual(
        [0, 1, 2, 3, 4].map((i) => `https://p.example/${i}`),
      );
      const seen: string[] = [];
      let url: string | undefined = "/v1/webhooks?limit=2";
      let pages = 0;
      while (url !== undefined) {
        const res = await call(a.apiKey, "GET", url);
        expect(res.statusCode).toBe(200);
        seen.push(...res.json<{ webhooks: { id: string }[] }>().webhooks.map((w) => w.id));
        const link = res.headers.link as string | undefined;
        url = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)![1];
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(created);
      for (const bad of ["limit=0", "limit=101", "after=1%27%20or%201=1", "after=x"]) {
        const res = await call(a.apiKey, "GET", `/v1/webhooks?${bad}`);
        expect(res.statusCode, bad).toBe(400);
      }
      expect((await call(a.apiKey, "GET", "/v1/webhooks?after=wh_zzz")).json()).toEqual({ webhooks: [] });
    });
  });
}

suite(
  "sqlite",
  () => openStore("sqlite::memory:", "./data"),
  async () => {},
);
if (TEST_DATABASE_URL !== undefined) {
  const url = TEST_DATABASE_URL;
  const schema = freshSchemaName("whcap");
  suite(
    "postgres",
    () => openStore(url, "./data", { pgSchema: schema }),
    () => dropSchema(url, schema),
  );
}
