/** The shared security suite: every authenticated route refuses a missing and an unknown x-api-key. */
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** Asserts 401 {detail} for a missing, an empty and an unknown key on `method url`. */
export async function expectAuthRequired(
  app: FastifyInstance,
  method: Method,
  url: string,
  payload: unknown = {},
): Promise<void> {
  const withBody = method !== "GET" && method !== "DELETE";
  const cases: (Record<string, string> | undefined)[] = [
    undefined,
    { "x-api-key": "" },
    { "x-api-key": "lt_this-key-was-never-issued" },
  ];
  for (const headers of cases) {
    const res = await app.inject({
      method,
      url,
      ...(headers !== undefined ? { headers } : {}),
      ...(withBody ? { payload: payload as Record<string, unknown> } : {}),
    });
    expect(res.statusCode, `${method} ${url} with ${JSON.stringify(headers)}`).toBe(401);
    const body = res.json<{ detail: unknown }>();
    expect(typeof body.detail).toBe("string");
    // Issue 30: the detail and its machine code, nothing else.
    expect(Object.keys(body)).toEqual(["detail", "code"]);
    expect((body as { code?: unknown }).code).toMatch(/^auth\.(missing_key|invalid_key)$/);
  }
}

// ---- Issue 19: scopes, wallet binding, revocation and freeze on every route ----

/** One authenticated operation of the OpenAPI document with the scope it declares. */
export interface ScopedRoute {
  method: Method;
  /** The path with `{param}` filled in (`public_key` → `wallet`, `id` → `keyId`). */
  url: string;
  path: string;
  scope: string;
}

/** Every operation of the document that is not public, with its x-required-scope. */
export async function scopedRoutes(
  app: FastifyInstance,
  fill: { wallet: string; keyId: number },
): Promise<ScopedRoute[]> {
  const doc = (await app.inject({ method: "GET", url: "/openapi.json" })).json<{
    paths: Record<string, Record<string, { security?: unknown; "x-required-scope"?: string }>>;
  }>();
  const out: ScopedRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      // Public (setup, health): no security requirement, stated as `security: []`.
      if (!Array.isArray(op.security) || op.security.length === 0) continue;
      const scope = op["x-required-scope"];
      expect(typeof scope, `${method} ${path} declares x-required-scope`).toBe("string");
      const url = path.replace("{public_key}", fill.wallet).replace("{id}", String(fill.keyId));
      out.push({ method: method.toUpperCase() as Method, url, path, scope: scope as string });
    }
  }
  return out;
}

/** Creates a sub-key with the root key; returns its secret and id. */
export async function createSubKey(
  app: FastifyInstance,
  rootKey: string,
  body: Record<string, unknown>,
): Promise<{ apiKey: string; id: number }> {
  const res = await app.inject({
    method: "POST",
    url: "/v1/keys",
    headers: { "x-api-key": rootKey },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const b = res.json<{ api_key: string; id: number }>();
  return { apiKey: b.api_key, id: b.id };
}

/** Sends `method url` with `key` and returns status and body. */
export async function callWith(
  app: FastifyInstance,
  key: string,
  method: Method,
  url: string,
  payload: unknown = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const withBody = method !== "GET" && method !== "DELETE";
  const res = await app.inject({
    method,
    url,
    headers: { "x-api-key": key },
    ...(withBody ? { payload: payload as Record<string, unknown> } : {}),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
}

/** Asserts a refusal: `status`, a string `detail`, and `rule` when given. */
export function expectRefusal(
  r: { status: number; body: Record<string, unknown> },
  status: number,
  rule: string | undefined,
  label: string,
): void {
  expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(status);
  expect(typeof r.body.detail, label).toBe("string");
  if (rule !== undefined) expect(r.body.rule, label).toBe(rule);
}
