/** GET /metrics through the real app: public, Prometheus text, route patterns (never URLs) as labels. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics, type Metrics } from "../../../src/observability/metrics.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { buildTestApp, nextTestIp, type TestApp } from "../../helpers/app.js";
import type { FastifyInstance } from "fastify";

describe("/metrics", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers without an API key, in Prometheus text format, with process metrics", async () => {
    const r = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toContain("text/plain");
    expect(r.body).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(r.body).toContain("# TYPE lasertrade_http_request_duration_seconds histogram");
    expect(r.body).toContain("# TYPE lasertrade_executions_total counter");
  });

  it("labels requests by route pattern and status; no key, wallet address or raw URL appears", async () => {
    const { apiKey, wallet, walletSecret } = await t.setup();
    const h = { "x-api-key": apiKey };
    await t.app.inject({ method: "GET", url: "/v1/wallets", headers: h });
    await t.app.inject({ method: "PUT", url: `/v1/wallets/${wallet}/default`, headers: h });
    await t.app.inject({ method: "GET", url: `/no/such/${wallet}` });
    await t.app.inject({ method: "GET", url: `/v1/wallets?x=${walletSecret}` });
    const body = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
    expect(body).toMatch(
      /lasertrade_http_request_duration_seconds_count\{method="GET",route="\/v1\/wallets",status_code="200"\} 1/,
    );
    expect(body).toMatch(/route="\/v1\/wallets",status_code="401"\} 1/);
    expect(body).toMatch(/method="POST",route="\/v1\/laser\/setup",status_code="200"\} 1/);
    expect(body).toMatch(/method="PUT",route="\/v1\/wallets\/:public_key\/default",status_code="200"\} 1/);
    expect(body).toMatch(/method="GET",route="unmatched",status_code="404"\} 1/);
    expect(body).not.toContain(wallet);
    expect(body).not.toContain(apiKey);
    expect(body).not.toContain(walletSecret);
  });

  it("is hidden from the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json<{ paths: object }>();
    expect(Object.keys(doc.paths)).not.toContain("/metrics");
  });
});

describe("/metrics registry per app", () => {
  let store: Store;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    store = await openStore("sqlite::memory:", "./data");
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await store.close();
  });

  async function app(metrics?: Metrics): Promise<FastifyInstance> {
    const a = await buildTestApp({ store, ...(metrics !== undefined ? { metrics } : {}) });
    apps.push(a);
    return a.app;
  }

  it("serves the registry it was given, and two apps never share one", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const a = await app(metrics);
    const b = await app();
    await a.inject({ method: "GET", url: "/healthz", remoteAddress: nextTestIp() });
    await a.inject({ method: "GET", url: "/healthz" });
    expect(await metrics.registry.metrics()).toContain(
      'lasertrade_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"} 2',
    );
    const other = (await b.inject({ method: "GET", url: "/metrics" })).body;
    expect(other).not.toContain('route="/healthz"');
  });
});
