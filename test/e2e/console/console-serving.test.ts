/**
 * GET /console (issue 33): the console's files from memory with their content types, caching, gzip and a CSP of
 * their own; nothing outside the built directory is reachable, however the path is spelled.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/http/app.js";
import { loadConfig } from "../../../src/config/config.js";
import { storeRateLimiter } from "../../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { testVault } from "../../helpers/app.js";
import type { FastifyInstance } from "fastify";

const SCRIPT = 'console.log("console")';

/** A raw GET over a socket: the path is sent as written (no client-side normalization of `..`). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("console static files", () => {
  let root: string;
  let app: FastifyInstance;
  let store: Store;
  let base: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "console-"));
    const dir = join(root, "console");
    mkdirSync(join(dir, "assets"), { recursive: true });
    writeFileSync(join(root, "secret.txt"), "SECRET-OUTSIDE");
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>c</title>");
    writeFileSync(join(dir, "assets", "app-ABC.js"), SCRIPT);
    writeFileSync(join(dir, "assets", "app-ABC.js.gz"), gzipSync(SCRIPT));
    writeFileSync(join(dir, "assets", "app-ABC.css"), "body{}");
    writeFileSync(join(dir, "assets", "notes.unknown"), "not served");
    store = await openStore("sqlite::memory:", "./data");
    app = await buildApp({
      config: loadConfig({}),
      store,
      vault: testVault(),
      clock: () => new Date(),
      rateLimiter: storeRateLimiter(store),
      consoleDir: dir,
    });
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await app.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("serves the page at /console and /console/, revalidated on every load, under the console's CSP", async () => {
    for (const url of ["/console", "/console/", "/console/index.html"]) {
      const r = await app.inject({ method: "GET", url });
      expect(r.statusCode, url).toBe(200);
      expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(r.headers["cache-control"]).toBe("no-cache");
      const csp = String(r.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("serves hashed assets with their type, a year of caching, gzip when accepted and 304 on a match", async () => {
    const plain = await app.inject({ method: "GET", url: "/console/assets/app-ABC.js" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const gz = await app.inject({
      method: "GET",
      url: "/console/assets/app-ABC.js",
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toContain("accept-encoding");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const again = await app.inject({
      method: "GET",
      url: "/console/assets/app-ABC.js",
      headers: { "if-none-match": String(plain.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const css = await app.inject({ method: "GET", url: "/console/assets/app-ABC.css" });
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("answers 404 for unknown files and files of no known type", async () => {
    for (const url of ["/console/nope.js", "/console/assets/notes.unknown", "/console/assets/"]) {
      const r = await app.inject({ method: "GET", url });
      expect(r.statusCode, url).toBe(404);
    }
  });

  it("reaches nothing outside the built directory, however the path is spelled", async () => {
    const attempts = [
      "/console/../secret.txt",
      "/console/..%2fsecret.txt",
      "/console/%2e%2e/secret.txt",
      "/console/%2e%2e%2fsecret.txt",
      "/console/assets/..%2f..%2fsecret.txt",
      "/console/..\\secret.txt",
      "/console/..%5csecret.txt",
      "/console//etc/passwd",
      "/console/%2fetc%2fpasswd",
      "/console/assets/%00app-ABC.js",
      "/console/../../../../etc/passwd",
      "/console/../package.json",
    ];
    for (const path of attempts) {
      const r = await rawGet(base, path);
      expect(r.body, path).not.toContain("SECRET-OUTSIDE");
      expect(r.body, path).not.toContain("root:");
      expect(r.body, path).not.toContain('"name"');
      expect([400, 404], path).toContain(r.status);
    }
  });

  it("leaves the API's own policy as strict as before", async () => {
    const r = await app.inject({ method: "GET", url: "/healthz" });
    const csp = String(r.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
  });
});

describe("console not built", () => {
  it("says how to build it instead of a bare 404", async () => {
    const store = await openStore("sqlite::memory:", "./data");
    const app = await buildApp({
      config: loadConfig({}),
      store,
      vault: testVault(),
      clock: () => new Date(),
      rateLimiter: storeRateLimiter(store),
      consoleDir: join(tmpdir(), "no-console-here"),
    });
    const r = await app.inject({ method: "GET", url: "/console" });
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain("npm run build");
    await app.close();
    await store.close();
  });
});
