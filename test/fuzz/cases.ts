/**
 * The fuzz case generator: for a route of the OpenAPI document, a request built from one of several families
 * (mutated valid bodies, random objects over the schema's fields, non-object JSON, raw malformed texts,
 * deep nesting, bodies over the size limit) with hostile headers (auth, content type, Idempotency-Key) and
 * path/query mutations.
 */
import fc from "fast-check";
import type { FuzzRoute } from "./openapi-routes.js";
import { bodyArb } from "./bodies.js";
import { base58Of, BUILTIN_ADDRESSES, randomAddress, type CaseContext } from "./context.js";
import { weirdString } from "./values.js";

/** One request the fuzzer sends. */
export interface FuzzCase {
  route: FuzzRoute;
  /** Generator family, for the per-family figures. */
  family: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const CONTENT_TYPES = [
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json;charset=latin1",
  "application/json; charset=utf-16",
  "application/json;;",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "application/jsonx",
  "application/problem+json",
  "*/*",
  "",
  " ",
  "application/json, text/plain",
];

const IDEMPOTENCY_KEYS = [
  "",
  " ",
  "a",
  "fuzz-key-1",
  "fuzz-key-2",
  "k".repeat(255),
  "k".repeat(256),
  "k".repeat(4096),
  "key with spaces",
  "tab\tkey",
  "caf\u00e9",
  "\u00ff\u00fe",
  "\x7f",
];

/** Header values HTTP can carry (tab, printable ASCII, obs-text 0x80-0xFF). */
const headerText = fc.string({
  unit: fc.oneof(
    fc.constant("\t"),
    fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 64,
});

/** Percent-encodes any string, lone surrogates included (they are sent as U+FFFD, as UTF-8 encoding does). */
function pct(s: string): string {
  return Array.from(Buffer.from(s, "utf8"), (b) =>
    /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).padStart(2, "0")}`,
  ).join("");
}

/** Query strings per route (valid and hostile). */
function queryArb(route: FuzzRoute, values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const names = [...route.queryParams, "limit", "unknown", "__proto__"];
  const pair = fc
    .tuple(
      fc.constantFrom(...names),
      fc.oneof(values, fc.constantFrom("1", "200", "201", "0", "-1", "1e3", "trade")),
    )
    .map(([k, v]) => `${pct(k)}=${pct(v)}`);
  return fc.oneof(
    fc.array(pair, { maxLength: 5 }).map((ps) => (ps.length > 0 ? `?${ps.join("&")}` : "")),
    fc.constantFrom(
      "?",
      "?&&",
      "?limit",
      "?limit=%",
      "?limit=%zz",
      "?kind=trade&kind=bundle",
      "?a[b]=1",
      "#frag",
    ),
  );
}

/** The path with its parameters filled (valid wallets, foreign and random addresses, garbage). */
function pathArb(route: FuzzRoute, ctx: CaseContext): fc.Arbitrary<string> {
  if (route.pathParams.length === 0) return fc.constant(route.path);
  const mayBeMine = route.method === "PUT" ? [...ctx.wallets] : [];
  const param = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => pickDisposable(ctx)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...mayBeMine, ctx.foreignWallet, ctx.mint, ...BUILTIN_ADDRESSES),
    },
    { weight: 2, arbitrary: randomAddress },
    { weight: 3, arbitrary: weirdString().map(pct) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("%", "%zz", "..", "%2e%2e%2f", "a/b", "%2F", "%00", "x".repeat(5000)),
    },
  );
  return fc
    .array(param, { minLength: route.pathParams.length, maxLength: route.pathParams.length })
    .map((vals) => {
      let p = route.path;
      route.pathParams.forEach((name, i) => {
        const v = vals[i] ?? "";
        p = p.replace(`{${name}}`, v === "" ? "%20" : v);
      });
      return p;
    });
}

// Chosen when the case runs, so it sees the wallets created so far (a generator cannot see run-time state).
function pickDisposable(ctx: CaseContext): string {
  const list = ctx.disposable();
  return list.length > 0 ? (list[list.length - 1] as string) : ctx.foreignWallet;
}

/** The x-api-key header: mostly the funded key, else missing, empty, malformed, unknown or another key's. */
function authArb(ctx: CaseContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 40, arbitrary: fc.constant(ctx.apiKey) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(ctx.otherApiKey) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "",
          " ",
          `${ctx.apiKey} `,
          ` ${ctx.apiKey}`,
          ctx.apiKey.toLowerCase(),
          ctx.apiKey.slice(0, -1),
        ),
        fc.constantFrom("lt_", "Bearer x", "x".repeat(8000)),
        base58Of(32).map((k) => `lt_${k}`),
        headerText,
      ),
    },
  );
}

/** Method and URL mutations: other methods on the path, trailing or doubled slashes, case changes. */
function methodArb(route: FuzzRoute): fc.Arbitrary<{ method: string; mangle: (url: string) => string }> {
  const same = (url: string) => url;
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant({ method: route.method, mangle: same }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD")
        .map((method) => ({
          method,
          mangle: same,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          (u: string) => `${u}/`,
          (u: string) => `/${u}`,
          (u: string) => u.toUpperCase(),
          (u: string) => u.replace("/v1/", "/v1//"),
          (u: string) => u.replace("/v1/", "/v2/"),
          (u: string) => `${u}%00`,
        )
        .map((mangle) => ({ method: route.method, mangle })),
    },
  );
}

/** Every fuzz case for `route`. */
export function caseArb(route: FuzzRoute, ctx: CaseContext): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      body: bodyArb(route, ctx),
      path: pathArb(route, ctx),
      query: fc.oneof(
        { weight: 5, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: queryArb(route, weirdString()) },
      ),
      auth: authArb(ctx),
      contentType: fc.oneof(
        { weight: 12, arbitrary: fc.constant("application/json") },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerText) },
      ),
      idempotencyKey: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) },
        { weight: 1, arbitrary: headerText },
      ),
      extraHeaders: fc.dictionary(
        fc.constantFrom(
          "accept",
          "x-forwarded-for",
          "content-encoding",
          "x-request-id",
          "accept-charset",
          "origin",
        ),
        headerText,
        { maxKeys: 2 },
      ),
      method: methodArb(route),
    })
    .map((r): FuzzCase => {
      const headers: Record<string, string> = { ...r.extraHeaders };
      if (r.auth !== undefined) headers["x-api-key"] = r.auth;
      if (r.idempotencyKey !== undefined && (route.idempotent || r.idempotencyKey === "fuzz-key-1"))
        headers["idempotency-key"] = r.idempotencyKey;
      let family = "no-body";
      let payload: string | Buffer | undefined;
      if (r.body !== undefined) {
        family = r.body.family;
        payload = r.body.raw ?? JSON.stringify(r.body.json) ?? "null";
        if (r.contentType !== undefined) headers["content-type"] = r.contentType;
      }
      if (family === "valid" && (r.method.method !== route.method || r.auth !== ctx.apiKey))
        family = "valid-mangled";
      return {
        route,
        family,
        method: r.method.method,
        url: r.method.mangle(r.path + r.query),
        headers,
        ...(payload !== undefined ? { payload } : {}),
      };
    });
}

/** A case for any route of the document, routes drawn evenly. */
export function anyCaseArb(routes: readonly FuzzRoute[], ctx: CaseContext): fc.Arbitrary<FuzzCase> {
  return fc.oneof(...routes.map((r) => caseArb(r, ctx)));
}
