/** helmet (src/http/hooks/security-headers.ts): the usual security headers on API responses, and a policy of its own for /docs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../helpers/app.js";

describe("security headers", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("a JSON route carries helmet's headers and a CSP that allows nothing", async () => {
    const r = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(r.statusCode).toBe(200);
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(r.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(r.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(r.headers["referrer-policy"]).toBe("no-referrer");
    expect(r.headers["cross-origin-resource-policy"]).toBe("same-origin");
    expect(r.headers["x-powered-by"]).toBeUndefined();
    const csp = String(r.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("error responses carry them too", async () => {
    const r = await t.app.inject({ method: "GET", url: "/v1/wallets" });
    expect(r.statusCode).toBe(401);
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(r.headers["content-security-policy"])).toContain("default-src 'none'");
  });

  it("/docs still answers, with a policy that lets Swagger UI load its own assets", async () => {
    const page = await t.app.inject({ method: "GET", url: "/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("default-src 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    // Every asset the page references is served.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets.length).toBeGreaterThan(2);
    for (const a of assets) {
      const url = new URL(a, "http://x/docs/").pathname;
      const r = await t.app.inject({ method: "GET", url });
      expect(r.statusCode, url).toBe(200);
      expect(String(r.headers["content-security-policy"]), url).toContain("script-src 'self'");
    }
  });

  it("/openapi.json and /docs/json still answer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/openapi.json" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/docs/json" })).statusCode).toBe(200);
  });
});
