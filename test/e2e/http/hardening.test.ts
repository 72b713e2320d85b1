/**
 * Issue 23 over the real app: per-key budgets, the invalid-key throttle, the wallet cap and paging, the setup
 * gate, the metrics token, ALLOWED_HOSTS, no-store, per-key wallet ids, soft-delete delink, ambiguous bodies
 * and query-free request logs.
 */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/runtime/logger.js";
import { createMetrics } from "../../../src/observability/metrics.js";
import { buildTestApp, nextTestIp, type TestApp } from "../../helpers/app.js";
import { newExecution } from "../../helpers/fixtures.js";

let apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps) await a.close();
  apps = [];
});

async function app(env: NodeJS.ProcessEnv = {}, extra: Parameters<typeof buildTestApp>[0] = {}) {
  const t = await buildTestApp({ env, ...extra });
  apps.push(t);
  return t;
}

const get = (t: TestApp, url: string, apiKey?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "GET",
    url,
    headers: { ...(apiKey !== undefined ? { "x-api-key": apiKey } : {}), ...headers },
  });

const post = (t: TestApp, url: string, apiKey: string, payload: string) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    payload,
  });

describe("per-key budgets", () => {
  it("one key past its read budget gets 429 with Retry-After and a detail; another key is unaffected", async () => {
    const t = await app({ RATE_LIMIT_READS: "3" });
    const a = await t.setup();
    const b = await t.setup();
    for (let i = 0; i < 3; i += 1) expect((await get(t, "/v1/wallets", a.apiKey)).statusCode).toBe(200);
    const over = await get(t, "/v1/wallets", a.apiKey);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(over.json()).toEqual({
      detail: expect.stringMatching(/rate limit of 3 reads requests per 60 s/),
      // The account's budget (all its keys) has the same size here and is checked first.
      code: "limits.account_rate_limited",
    });
    expect((await get(t, "/v1/wallets", b.apiKey)).statusCode).toBe(200);
    // Another class keeps its own budget.
    expect((await post(t, "/v1/wallets", a.apiKey, "{}")).statusCode).toBe(200);
  });

  it("checks have their own, smaller budget; public routes are limited per IP", async () => {
    const t = await app({ RATE_LIMIT_CHECKS: "1", RATE_LIMIT_PUBLIC: "2" });
    const a = await t.setup();
    const body = JSON.stringify({ wallet: a.wallet });
    // Without a chain the first check answers 503; the second is refused before it reaches the handler.
    expect((await post(t, "/v1/cashback/check", a.apiKey, body)).statusCode).toBe(503);
    expect((await post(t, "/v1/cashback/check", a.apiKey, body)).statusCode).toBe(429);
    // GET /v1/quote (issue 22) reads the chain too: it spends the checks budget, not the reads budget.
    expect((await get(t, `/v1/quote?mint=${a.wallet}&side=buy&amount=1`, a.apiKey)).statusCode).toBe(429);
    expect((await get(t, "/v1/wallets", a.apiKey)).statusCode).toBe(200);
    const ip = nextTestIp();
    const health = () => t.app.inject({ method: "GET", url: "/healthz", remoteAddress: ip });
    expect((await health()).statusCode).toBe(200);
    expect((await health()).statusCode).toBe(200);
    expect((await health()).statusCode).toBe(429);
    expect(
      (await t.app.inject({ method: "GET", url: "/healthz", remoteAddress: nextTestIp() })).statusCode,
    ).toBe(200);
  });

  it("the window ends: the key is served again once Retry-After has passed", async () => {
    let now = Date.parse("2026-11-24T00:00:10Z");
    const t = await app({ RATE_LIMIT_EXECUTIONS: "1" }, { clock: () => new Date(now) });
    const a = await t.setup();
    expect((await post(t, "/v1/wallets", a.apiKey, "{}")).statusCode).toBe(200);
    const over = await post(t, "/v1/wallets", a.apiKey, "{}");
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBe("50");
    now += 50_000;
    expect((await post(t, "/v1/wallets", a.apiKey, "{}")).statusCode).toBe(200);
  });
});

describe("invalid keys", () => {
  it("are counted, logged once per batch, and throttled per IP; a valid key from that IP still works", async () => {
    const lines: string[] = [];
    const logger = createLogger(
      "warn",
      new Writable({
        write(chunk: Buffer, _e, done) {
          lines.push(chunk.toString("utf8"));
          done();
        },
      }),
    );
    const metrics = createMetrics({ processMetrics: false });
    const t = await app({ AUTH_FAILURES_PER_MINUTE: "2" }, { logger, metrics });
    const good = await t.setup();
    const ip = nextTestIp();
    const bad = () =>
      t.app.inject({
        method: "GET",
        url: "/v1/wallets",
        headers: { "x-api-key": "lt_guess" },
        remoteAddress: ip,
      });
    expect((await bad()).statusCode).toBe(401);
    expect((await bad()).statusCode).toBe(401);
    const third = await bad();
    expect(third.statusCode).toBe(429);
    expect(third.headers["retry-after"]).toBeDefined();
    expect(third.json<{ detail: string }>().detail).toMatch(/invalid API key from this address/);
    const ok = await t.app.inject({
      method: "GET",
      url: "/v1/wallets",
      headers: { "x-api-key": good.apiKey },
      remoteAddress: ip,
    });
    expect(ok.statusCode).toBe(200);
    expect(await metrics.registry.getSingleMetricAsString("lasertrade_auth_failures_total")).toMatch(
      /lasertrade_auth_failures_total 3/,
    );
    const warnings = lines.filter((l) => l.includes("invalid API key presented"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("lt_guess");
  });
});

describe("wallets", () => {
  it("MAX_WALLETS_PER_KEY counts setup's wallet and refuses create and import past it", async () => {
    const t = await app({ MAX_WALLETS_PER_KEY: "2" });
    const a = await t.setup();
    expect((await post(t, "/v1/wallets", a.apiKey, "{}")).statusCode).toBe(200);
    const third = await post(t, "/v1/wallets", a.apiKey, "{}");
    expect(third.statusCode).toBe(409);
    expect(third.json<{ detail: string }>().detail).toMatch(/maximum of 2 wallets/);
  });

  it("pages with limit/after and a Link header; the body stays an array; ids count per key", async () => {
    const t = await app();
    const other = await t.setup();
    await post(t, "/v1/wallets", other.apiKey, "{}");
    const a = await t.setup();
    for (let i = 0; i < 4; i += 1) await post(t, "/v1/wallets", a.apiKey, "{}");
    const all = (await get(t, "/v1/wallets", a.apiKey)).json<{ id: number }[]>();
    // Ids never reveal how many wallets the instance holds: every key's first wallet is 1.
    expect(all.map((w) => w.id)).toEqual([1, 2, 3, 4, 5]);
    const first = await get(t, "/v1/wallets?limit=2", a.apiKey);
    expect(first.json<{ id: number }[]>().map((w) => w.id)).toEqual([1, 2]);
    expect(first.headers.link).toBe('</v1/wallets?limit=2&after=2>; rel="next"');
    const last = await get(t, "/v1/wallets?limit=2&after=4", a.apiKey);
    expect(last.json<{ id: number }[]>().map((w) => w.id)).toEqual([5]);
    expect(last.headers.link).toBeUndefined();
    expect((await get(t, "/v1/wallets?limit=0", a.apiKey)).statusCode).toBe(400);
    expect((await get(t, "/v1/wallets?limit=1001", a.apiKey)).statusCode).toBe(400);
  });

  it("authenticated GETs answer Cache-Control: no-store", async () => {
    const t = await app();
    const a = await t.setup();
    expect((await get(t, "/v1/wallets", a.apiKey)).headers["cache-control"]).toBe("no-store");
    expect((await get(t, "/v1/executions", a.apiKey)).headers["cache-control"]).toBe("no-store");
  });

  it("delink hides the wallet's history from the API but keeps it in the database", async () => {
    const t = await app();
    const a = await t.setup();
    const key = await t.store.findApiKeyByHash(t.vault.hashApiKey(a.apiKey));
    if (key === undefined) throw new Error("key not stored");
    const w = (await post(t, "/v1/wallets", a.apiKey, "{}")).json<{ public_key: string }>().public_key;
    await t.store.insertExecution(newExecution(key.id, w, { idempotencyKey: "trail-1" }));
    expect(
      (await get(t, `/v1/executions?wallet=${w}`, a.apiKey)).json<{ executions: unknown[] }>().executions,
    ).toHaveLength(1);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/v1/wallets/${w}`, headers: { "x-api-key": a.apiKey } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await get(t, `/v1/executions?wallet=${w}`, a.apiKey)).json<{ executions: unknown[] }>().executions,
    ).toHaveLength(0);
    expect(await t.store.hasIdempotentExecution(key.id, "trail-1")).toBe(true);
  });
});

describe("setup gate, metrics token, allowed hosts", () => {
  it("SETUP_MODE=closed answers 403; SETUP_MODE=token needs x-setup-token", async () => {
    const closed = await app({ SETUP_MODE: "closed" });
    const r = await closed.app.inject({
      method: "POST",
      url: "/v1/laser/setup",
      remoteAddress: nextTestIp(),
    });
    expect(r.statusCode).toBe(403);
    const gated = await app({ SETUP_MODE: "token", SETUP_TOKEN: "s".repeat(24) });
    const without = await gated.app.inject({
      method: "POST",
      url: "/v1/laser/setup",
      remoteAddress: nextTestIp(),
    });
    expect(without.statusCode).toBe(401);
    const wrong = await gated.app.inject({
      method: "POST",
      url: "/v1/laser/setup",
      headers: { "x-setup-token": "t".repeat(24) },
      remoteAddress: nextTestIp(),
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await gated.app.inject({
      method: "POST",
      url: "/v1/laser/setup",
      headers: { "x-setup-token": "s".repeat(24) },
      remoteAddress: nextTestIp(),
    });
    expect(ok.statusCode).toBe(200);
  });

  it("METRICS_TOKEN guards /metrics", async () => {
    const t = await app({ METRICS_TOKEN: "m".repeat(20) });
    expect((await get(t, "/metrics")).statusCode).toBe(401);
    expect(
      (await get(t, "/metrics", undefined, { authorization: `Bearer ${"m".repeat(20)}` })).statusCode,
    ).toBe(200);
    expect((await get(t, "/healthz")).statusCode).toBe(200);
  });

  it("ALLOWED_HOSTS refuses other Host names with 421", async () => {
    const t = await app({ ALLOWED_HOSTS: "api.example.com" });
    expect((await get(t, "/healthz", undefined, { host: "evil.example" })).statusCode).toBe(421);
    expect((await get(t, "/healthz", undefined, { host: "api.example.com:8080" })).statusCode).toBe(200);
  });
});

describe("ambiguous bodies", () => {
  it("refuses duplicate keys and non-object bodies with one text; cashback no longer reads false as no body", async () => {
    const t = await app();
    const a = await t.setup();
    const dup = await post(t, "/v1/wallets", a.apiKey, '{"set_default":true,"set_default":false}');
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({
      detail: "request body repeats a key in one object",
      code: "http.duplicate_key",
    });
    for (const payload of ["false", "0", '""', "[]"]) {
      for (const url of [
        "/v1/cashback/claim/execute",
        "/v1/cashback/check",
        "/v1/wallets",
        "/v1/wallets/import",
      ]) {
        const r = await post(t, url, a.apiKey, payload);
        expect(r.statusCode, `${url} ${payload}`).toBe(400);
        expect(r.json(), `${url} ${payload}`).toEqual({
          code: "http.body_not_object",
          detail: "request body must be a JSON object",
        });
      }
    }
    const missing = await t.app.inject({
      method: "POST",
      url: "/v1/wallets/import",
      headers: { "x-api-key": a.apiKey },
    });
    expect(missing.json()).toEqual({
      code: "http.body_not_object",
      detail: "request body must be a JSON object",
    });
  });
});

describe("logs", () => {
  it("carry the route and path, never the query string", async () => {
    const lines: string[] = [];
    const logger = createLogger(
      "info",
      new Writable({
        write(chunk: Buffer, _e, done) {
          lines.push(chunk.toString("utf8"));
          done();
        },
      }),
    );
    const t = await app({}, { logger });
    await t.app.inject({ method: "GET", url: "/v1/wallets?api_key=lt_SECRET_IN_QUERY" });
    const text = lines.join("");
    expect(text).toContain('"path":"/v1/wallets"');
    expect(text).toContain('"route":"/v1/wallets"');
    expect(text).not.toContain("lt_SECRET_IN_QUERY");
  });
});
