/**
 * Issue 30 item 6: requests generated from the OpenAPI document. For each operation, fast-check arbitraries of
 * requests the document allows (every parameter and the body drawn from their schemas) and of requests it
 * refuses (one allowed request with one value broken: a required field dropped, a value of the wrong type, a
 * pattern, length, range or enum broken). Each refused request is checked against the document with Ajv, so
 * "refused by the document" is the document's word, not the generator's guess.
 */
import { Ajv, type ValidateFunction } from "ajv";
import bs58 from "bs58";
import fc from "fast-check";
import { BASE58_ADDRESS } from "../../src/config/parse.js";
import { PATTERN } from "../../src/core/json-schema.js";

type Json = Record<string, unknown>;

/** One request, ready for `app.inject`. */
export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON text of the body, or undefined for none. */
  payload?: string;
  /** What was broken (invalid requests only): "body.mint pattern", "query.limit", … */
  broken?: string;
}

interface Parameter {
  in: "path" | "query" | "header";
  name: string;
  required: boolean;
  schema: Json;
}

/** What the generator knows of one operation. */
export interface Operation {
  method: string;
  path: string;
  key: string;
  params: Parameter[];
  body?: { schema: Json; required: boolean };
  responses: string[];
}

/** The operations of the document (JSON bodies only; `exclude` by "METHOD /path"). */
export function operationsOf(doc: Json, exclude: ReadonlySet<string>): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase();
      const key = `${method} ${path}`;
      if (!["GET", "POST", "PUT", "DELETE"].includes(method) || exclude.has(key)) continue;
      const params = ((op.parameters ?? []) as Json[])
        .filter((p) => p.in === "path" || p.in === "query" || p.in === "header")
        .map((p) => ({
          in: p.in as Parameter["in"],
          name: p.name as string,
          required: p.required === true,
          schema: (p.schema ?? {}) as Json,
        }));
      const rb = op.requestBody as Json | undefined;
      const schema = (rb?.content as Record<string, Json> | undefined)?.["application/json"]?.schema as
        Json | undefined;
      out.push({
        method,
        path,
        key,
        params,
        ...(schema !== undefined ? { body: { schema, required: rb?.required !== false } } : {}),
        responses: Object.keys((op.responses ?? {}) as Json),
      });
    }
  }
  return out;
}

/** Resolves `#/components/schemas/X` references against the document. */
function resolver(doc: Json): (s: Json) => Json {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  return (s) => {
    let cur = s;
    while (typeof cur.$ref === "string") cur = schemas[cur.$ref.split("/").pop()!] ?? {};
    return cur;
  };
}

const MAX_ITEMS = 3;

/** Base58 text of `bytes` random bytes (a public key, a signature). */
const base58Of = (bytes: number): fc.Arbitrary<string> =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => bs58.encode(b));

/** An arbitrary of the values a schema allows (the subset of JSON Schema the document uses). */
export function valueOf(doc: Json, schema: Json): fc.Arbitrary<unknown> {
  const resolve = resolver(doc);
  const go = (raw: Json): fc.Arbitrary<unknown> => {
    const s = resolve(raw);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    if ("const" in s) return fc.constant(s.const);
    // An object's rules across fields (oneOf of required sets, allOf of if/then, not) are not drawn from:
    // allowedRequests keeps the drawn requests the document allows.
    // A body that is exactly one of closed variants (an order: per kind): drawn from one variant.
    const variants = Array.isArray(s.oneOf) ? (s.oneOf as Json[]).map(resolve) : [];
    if (
      variants.length > 0 &&
      variants.every((v) => v.additionalProperties === false && v.properties !== undefined)
    )
      return fc.oneof(...variants.map(objectOf));
    if (s.properties !== undefined) return objectOf(s);
    for (const k of ["oneOf", "anyOf"] as const)
      if (Array.isArray(s[k])) return fc.oneof(...(s[k] as Json[]).map(go));
    if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => go({ ...s, type: t })));
    switch (s.type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({
          min: typeof s.minimum === "number" ? s.minimum : -1000,
          max: typeof s.maximum === "number" ? s.maximum : 1_000_000,
        });
      case "number":
        if (typeof s.multipleOf === "number") return multiplesOf(s);
        return fc.double({
          min: typeof s.minimum === "number" ? s.minimum : -1000,
          max: typeof s.maximum === "number" ? s.maximum : 1_000_000,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case "string": {
        const minLength = typeof s.minLength === "number" ? s.minLength : 0;
        // A base58 pattern says the text's alphabet and length; the parsers also decode it (32 bytes for an
        // address, 64 for a signature), which JSON Schema cannot state: draw real ones, and text that only
        // matches the pattern now and then.
        if (s.pattern === BASE58_ADDRESS.source) return base58Of(32);
        if (s.pattern === "^[1-9A-HJ-NP-Za-km-z]{64,88}$") return base58Of(64);
        if (s.pattern === PATTERN.secretKey) return fc.oneof(base58Of(64), base58Of(32));
        if (typeof s.pattern === "string" && s.pattern.endsWith(`|${BASE58_ADDRESS.source}`))
          return fc.oneof(fc.constantFrom("SOL", " sol "), base58Of(32));
        if (typeof s.pattern === "string") {
          const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
          return fc
            .stringMatching(new RegExp(s.pattern))
            .filter((v) => v.length >= minLength && v.length <= max);
        }
        const maxLength = typeof s.maxLength === "number" ? s.maxLength : minLength + 40;
        return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40) });
      }
      case "array":
        return fc.array(go((s.items ?? {}) as Json), {
          minLength: typeof s.minItems === "number" ? s.minItems : 0,
          maxLength: Math.min(typeof s.maxItems === "number" ? s.maxItems : MAX_ITEMS, MAX_ITEMS),
        });
      case "object":
      case undefined:
        if (s.type === undefined && s.properties === undefined) return fc.jsonValue({ maxDepth: 1 });
        return objectOf(s);
      default:
        return fc.jsonValue({ maxDepth: 1 });
    }
  };
  const objectOf = (s: Json): fc.Arbitrary<unknown> => {
    const props = (s.properties ?? {}) as Record<string, Json>;
    const required = ((s.required ?? []) as string[]).filter((k) => k in props);
    return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, go(v)])), {
      requiredKeys: required,
    });
  };
  return go(schema);
}

/**
 * Decimal multiples of `multipleOf` within the schema's bounds, as short decimal text would write them (so
 * 0.07 is 0.07, not 7 × 0.01 = 0.07000000000000001).
 */
function multiplesOf(s: Json): fc.Arbitrary<number> {
  const step = s.multipleOf as number;
  const places = Math.max(0, -Math.floor(Math.log10(step)));
  const lo =
    typeof s.minimum === "number"
      ? s.minimum
      : typeof s.exclusiveMinimum === "number"
        ? s.exclusiveMinimum + step
        : -1000;
  const hi = typeof s.maximum === "number" ? s.maximum : 1_000_000;
  return fc
    .oneof(
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 0, max: Math.min(Math.round((hi - lo) / step), Number.MAX_SAFE_INTEGER) }),
    )
    .map((k) => Number((lo + k * step).toFixed(places)))
    .filter((x) => x <= hi);
}

/** Values that break most schemas: one of them is refused by any schema that refuses anything. */
const WRONG_VALUES: readonly unknown[] = [
  true,
  123456789,
  -1,
  1.5,
  "!!not valid!!",
  "",
  [],
  {},
  null,
  "x".repeat(300),
];
const WRONG_PARAMS: readonly string[] = [
  "!!not valid!!",
  "-1",
  "1.5",
  "99999999999",
  "",
  "x".repeat(300),
  "zz",
];

/** Ajv over the document's components, params coerced from their text (as a query string carries them). */
export function documentValidators(doc: Json): {
  body: (schema: Json) => ValidateFunction;
  param: (schema: Json) => ValidateFunction;
} {
  const plain = new Ajv({ strict: false, allErrors: false, multipleOfPrecision: 6 });
  const coercing = new Ajv({ strict: false, allErrors: false, coerceTypes: true, multipleOfPrecision: 6 });
  for (const a of [plain, coercing]) {
    a.addKeyword("example");
    a.addSchema({ components: doc.components ?? {} }, "doc");
  }
  const fix = (s: Json): Json =>
    JSON.parse(JSON.stringify(s).replace(/"#\/components\//g, '"doc#/components/')) as Json;
  const cache = new Map<string, ValidateFunction>();
  const compile = (a: Ajv, tag: string, s: Json): ValidateFunction => {
    const key = tag + JSON.stringify(s);
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = a.compile(fix(s))));
    return v;
  };
  return { body: (s) => compile(plain, "b", s), param: (s) => compile(coercing, "p", s) };
}

const fill = (path: string, values: Record<string, string>): string =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? "x"));

/** A drawn value as query text (an object without a prototype, from fc.jsonValue, has no String form). */
function paramText(x: unknown): string {
  try {
    return String(x);
  } catch {
    return JSON.stringify(x);
  }
}

/** Parameters and body of a request the document allows, drawn from its schemas. */
function allowedParts(doc: Json, op: Operation) {
  const params = Object.fromEntries(
    op.params.map((p) => {
      const v = valueOf(doc, p.schema).map(paramText);
      return [
        `${p.in}:${p.name}`,
        p.required ? v.map((x) => x as string | undefined) : fc.option(v, { nil: undefined }),
      ];
    }),
  ) as Record<string, fc.Arbitrary<string | undefined>>;
  const body = op.body === undefined ? fc.constant(undefined) : valueOf(doc, op.body.schema);
  return fc.record({ params: fc.record(params), body });
}

/** Builds the request from its parts. */
function toRequest(op: Operation, params: Record<string, string | undefined>, body: unknown, apiKey: string) {
  const pathValues: Record<string, string> = {};
  const query = new URLSearchParams();
  const headers: Record<string, string> = { "x-api-key": apiKey, accept: "application/json" };
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    const [where, name] = k.split(":") as [string, string];
    if (where === "path") pathValues[name] = v;
    else if (where === "query") query.set(name, v);
    else headers[name] = v;
  }
  const qs = query.toString();
  const req: GeneratedRequest = {
    method: op.method,
    url: fill(op.path, pathValues) + (qs === "" ? "" : `?${qs}`),
    headers,
  };
  if (body !== undefined) {
    req.payload = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  return req;
}

/** Requests of `op` the document allows. */
export function allowedRequests(doc: Json, op: Operation, apiKey: string): fc.Arbitrary<GeneratedRequest> {
  const v = documentValidators(doc);
  // Rules across fields are not drawn from (valueOf): keep the drawn requests the document allows.
  return allowedParts(doc, op)
    .map(({ params, body }) => toRequest(op, params, body, apiKey))
    .filter((req) => documentAllows(v, op, req));
}

/** Requests of `op` the document refuses: an allowed one with one value broken (null when none can be). */
export function refusedRequests(
  doc: Json,
  op: Operation,
  apiKey: string,
): fc.Arbitrary<GeneratedRequest | null> {
  const v = documentValidators(doc);
  const resolve = resolver(doc);
  return fc.tuple(allowedParts(doc, op), fc.nat()).map(([{ params, body }, pick]) => {
    const breaks: (() => GeneratedRequest | null)[] = [];
    for (const p of op.params) {
      // A path parameter always has a value; header values must stay printable ASCII to be sent at all.
      for (const wrong of WRONG_PARAMS) {
        if (v.param(p.schema)(wrong)) continue;
        if (p.in === "path" && wrong === "") continue;
        breaks.push(() => ({
          ...toRequest(op, { ...params, [`${p.in}:${p.name}`]: wrong }, body, apiKey),
          broken: `${p.in}.${p.name}=${JSON.stringify(wrong).slice(0, 20)}`,
        }));
        break;
      }
    }
    if (op.body !== undefined) {
      const schema = resolve(op.body.schema);
      if (op.body.required && !v.body(schema)(null))
        breaks.push(() => ({ ...toRequest(op, params, [], apiKey), broken: "body=[]" }));
      const b = body as Json | null | undefined;
      if (b !== null && typeof b === "object" && !Array.isArray(b)) {
        const props = (schema.properties ?? {}) as Record<string, Json>;
        for (const req of (schema.required ?? []) as string[]) {
          const { [req]: _dropped, ...rest } = b;
          breaks.push(() => ({ ...toRequest(op, params, rest, apiKey), broken: `body.${req} missing` }));
        }
        for (const [name, ps] of Object.entries(props)) {
          const wrong = WRONG_VALUES.find((w) => !v.body(ps)(w));
          if (wrong === undefined) continue;
          breaks.push(() => ({
            ...toRequest(op, params, { ...b, [name]: wrong }, apiKey),
            broken: `body.${name}=${JSON.stringify(wrong).slice(0, 20)}`,
          }));
        }
      }
    }
    if (breaks.length === 0) return null;
    const req = breaks[pick % breaks.length]!();
    // The document's own word: the broken request must fail its schemas (else it is not a refused one).
    if (req === null || documentAllows(v, op, req)) return null;
    return req;
  });
}

/** Whether the document allows the request (its parameters and body against their schemas). */
export function documentAllows(
  v: ReturnType<typeof documentValidators>,
  op: Operation,
  req: GeneratedRequest,
): boolean {
  const url = new URL(req.url, "http://x");
  const pathRe = new RegExp(`^${op.path.replace(/\{([^}]+)\}/g, "(?<$1>[^/]*)")}$`);
  const groups = pathRe.exec(url.pathname)?.groups ?? {};
  for (const p of op.params) {
    const raw =
      p.in === "path"
        ? groups[p.name] !== undefined
          ? decodeURIComponent(groups[p.name]!)
          : undefined
        : p.in === "query"
          ? (url.searchParams.get(p.name) ?? undefined)
          : req.headers[p.name];
    if (raw === undefined) {
      if (p.required) return false;
      continue;
    }
    if (!v.param(p.schema)(raw)) return false;
  }
  if (op.body !== undefined) {
    if (req.payload === undefined) return !op.body.required;
    return v.body(op.body.schema)(JSON.parse(req.payload));
  }
  return true;
}
