/**
 * The fuzz case generator: for a route of the OpenAPI document, a request built from one of several families
 * (mutated valid bodies, random objects over the schema's fields, non-object JSON, raw malformed texts,
 * deep nesting, bodies over the size limit) with hostile headers (auth, content type, Idempotency-Key) and
 * path/query mutations.
 */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import fc from "fast-check";
import type { FuzzRoute } from "./openapi-routes.js";
import { nest, RAW_JSON_TEXTS, weirdString, weirdValue } from "./values.js";

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

/** Addresses and keys the generators draw valid values from. */
export interface CaseContext {
  apiKey: string;
  otherApiKey: string;
  wallets: readonly [string, string];
  foreignWallet: string;
  mint: string;
  migratedMint: string;
  pool: string;
  /** Wallets the run created (safe to delink); read at generation time. */
  disposable: () => readonly string[];
}

/** Builtin program and sysvar addresses: valid base58 public keys that are never a user's wallet. */
export const BUILTIN_ADDRESSES = [
  "11111111111111111111111111111111",
  "SysvarRent111111111111111111111111111111111",
  "SysvarC1ock11111111111111111111111111111111",
  "Sysvar1nstructions1111111111111111111111111",
  "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
  "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
  "ATokenGPvbdGVxr1b2hf4AFrCC4ywbLQVLyaKjHidEWU",
  "ComputeBudget111111111111111111111111111111",
  "So11111111111111111111111111111111111111112",
];

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

const base58Of = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => bs58.encode(b));

/** A random address (nobody's wallet) as base58. */
const randomAddress = base58Of(32);

/** Valid bodies per route (confirm off so a valid case costs one send, not a confirmation wait). */
function templates(
  ctx: CaseContext,
  ext: string,
  seed: Uint8Array,
): Record<string, Record<string, unknown>[]> {
  const [w0, w1] = ctx.wallets;
  const uri = "https://example.com/fuzz.json";
  return {
    "POST /v1/wallets": [{}, { set_default: false }],
    "POST /v1/wallets/import": [
      { private_key_base58: bs58.encode(seed) },
      { private_key_base58: bs58.encode(Keypair.fromSeed(seed).secretKey), set_default: false },
    ],
    "POST /v1/trades/execute": [
      { action: "buy", mint: ctx.mint, amount: "0.001", confirm: false },
      { action: "sell", mint: ctx.mint, amount: "10%", confirm: false },
      { action: "buy", mint: ctx.migratedMint, amount: "0.001", slippage_bps: 300, confirm: false },
      { side: "sell", token_mint: ctx.migratedMint, pool: ctx.pool, amount: "5%", confirm: false },
    ],
    "POST /v1/cashback/check": [{ wallet: w0 }, { wallets: [w0, w1, ext] }],
    "POST /v1/cashback/claim/execute": [
      { confirm: false },
      { wallet: w1, claim_launchswap: false, confirm: false },
    ],
    "POST /v1/sol/consolidate/execute": [
      { destination_wallet: w0, source_wallets: [w1], fee_reserve_lamports: 5000, confirm: false },
    ],
    "POST /v1/sol/transfer/execute": [
      { destination_wallet: ext, amount: "0.001", confirm: false },
      { destination_wallet: w1, source_wallet: w0, amount: 0.01, confirm: false },
      { destination_wallet: ext, mint: ctx.mint, amount: "1000", confirm: false },
    ],
    "POST /v1/sol/split/execute": [
      { destinations: [{ wallet: w1 }], total_percent: 1, confirm: false },
      {
        destinations: [
          { wallet: ext, sol: "0.001" },
          { wallet: w1, percent: 50 },
        ],
        total_percent: 1,
        confirm: false,
      },
    ],
    "POST /v1/laser/create": [
      { name: "Fuzz", symbol: "FZ", uri, confirm: false },
      { name: "Fuzz", symbol: "FZ", metadataUrl: uri, initial_buy: "0.01", slippage: 5, confirm: false },
    ],
    "POST /v1/laser/bundle": [
      { accounts: [{ type: "buy", amount: "0.001" }], mint: ctx.mint, bundleTip: "0.00001", confirm: false },
      {
        accounts: [
          { type: "create", name: "Fz", symbol: "FZ", uri, initial_buy: "0.01" },
          { type: "buy", wallet: w1, amount: "0.001" },
        ],
        bundleTip: 0.00001,
        confirm: false,
      },
    ],
  };
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

/** A body mutation: set a field to a hostile value, delete one, nest one deeply, or retype one. */
type Mutation =
  | { op: "set"; key: string; value: unknown }
  | { op: "delete"; index: number }
  | { op: "nest"; index: number; depth: number; asObject: boolean }
  | { op: "retype"; index: number; to: "string" | "number" | "array" | "object" | "null" };

function mutationArb(route: FuzzRoute, known: readonly string[]): fc.Arbitrary<Mutation> {
  const keys = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...route.bodyFields, "amount", "wallet", "mint") },
    { weight: 1, arbitrary: weirdString() },
  );
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ op: fc.constant("set" as const), key: keys, value: weirdValue(known) }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), index: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant("nest" as const),
        index: fc.nat(),
        depth: fc.integer({ min: 1, max: 200 }),
        asObject: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant("retype" as const),
        index: fc.nat(),
        to: fc.constantFrom(
          "string" as const,
          "number" as const,
          "array" as const,
          "object" as const,
          "null" as const,
        ),
      }),
    },
  );
}

function applyMutation(body: Record<string, unknown>, m: Mutation): void {
  if (m.op === "set") {
    body[m.key] = m.value;
    return;
  }
  const keys = Object.keys(body);
  if (keys.length === 0) return;
  const key = keys[m.index % keys.length] as string;
  const v = body[key];
  if (m.op === "delete") delete body[key];
  else if (m.op === "nest") body[key] = nest(v, m.depth, m.asObject);
  else if (m.to === "string") body[key] = JSON.stringify(v) ?? "";
  else if (m.to === "number") body[key] = Number.parseFloat(JSON.stringify(v) ?? "");
  else if (m.to === "array") body[key] = [v];
  else if (m.to === "object") body[key] = { value: v };
  else body[key] = null;
}

interface BodyChoice {
  family: string;
  /** JSON body (serialized later) or raw bytes. */
  json?: unknown;
  raw?: string | Buffer;
}

/** Bodies for a route: mutated templates first, then the other families. */
function bodyArb(route: FuzzRoute, ctx: CaseContext): fc.Arbitrary<BodyChoice | undefined> {
  const known = [
    ...ctx.wallets,
    ctx.foreignWallet,
    ctx.mint,
    ctx.migratedMint,
    ctx.pool,
    ...BUILTIN_ADDRESSES,
  ];
  const base = fc
    .tuple(randomAddress, fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat())
    .map(([ext, seed, i]) => {
      const list = templates(ctx, ext, seed)[route.key] ?? [{}];
      return structuredClone(list[i % list.length] as Record<string, unknown>);
    });
  const valid = base.map((json): BodyChoice => ({ family: "valid", json }));
  const mutated = fc
    .tuple(base, fc.array(mutationArb(route, known), { minLength: 1, maxLength: 3 }))
    .map(([body, ms]): BodyChoice => {
      for (const m of ms) applyMutation(body, m);
      return { family: "mutated", json: body };
    });
  const fieldNames = route.bodyFields.length > 0 ? route.bodyFields : ["x"];
  const randomObject = fc
    .dictionary(fc.oneof(fc.constantFrom(...fieldNames), weirdString()), weirdValue(known), { maxKeys: 8 })
    .map((json): BodyChoice => ({ family: "random-object", json }));
  const nonObject = weirdValue(known).map((json): BodyChoice => ({ family: "non-object", json }));
  const rawText = fc.constantFrom(...RAW_JSON_TEXTS).map((raw): BodyChoice => ({ family: "raw", raw }));
  const truncated = fc.tuple(base, fc.nat()).map(([body, cut]): BodyChoice => {
    const text = JSON.stringify(body);
    return { family: "raw", raw: text.slice(0, cut % Math.max(1, text.length)) };
  });
  const badBytes = fc
    .constantFrom([0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82])
    .map((bytes): BodyChoice => ({
      family: "raw",
      raw: Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('","symbol":"X"}')]),
    }));
  const deep = fc
    .tuple(fc.integer({ min: 500, max: 40_000 }), fc.boolean())
    .map(([n, asObject]): BodyChoice => ({
      family: "deep",
      raw: asObject ? '{"a":'.repeat(n) + "1" + "}".repeat(n) : "[".repeat(n) + "]".repeat(n),
    }));
  const oversize = fc
    .tuple(base, fc.integer({ min: 64 * 1024, max: 300 * 1024 }))
    .map(([body, n]): BodyChoice => ({ family: "oversize", json: { ...body, pad: "p".repeat(n) } }));
  const nearLimit = fc
    .tuple(base, fc.integer({ min: 60 * 1024, max: 64 * 1024 - 200 }))
    .map(([body, n]): BodyChoice => ({ family: "near-limit", json: { ...body, pad: "p".repeat(n) } }));
  const bodies = fc.oneof(
    { weight: route.hasBody ? 6 : 1, arbitrary: valid },
    { weight: route.hasBody ? 14 : 2, arbitrary: mutated },
    { weight: 4, arbitrary: randomObject },
    { weight: 2, arbitrary: nonObject },
    { weight: 2, arbitrary: rawText },
    { weight: 2, arbitrary: truncated },
    { weight: 1, arbitrary: badBytes },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: oversize },
    { weight: 1, arbitrary: nearLimit },
  );
  // Routes without a body mostly get none; a body they do not expect is a case of its own.
  return route.hasBody
    ? fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 19, arbitrary: bodies })
    : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodies });
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
