/**
 * Validates answers against the app's own OpenAPI document (issue 23): every documented status, header
 * and body shape must be the one the service sends. `installResponseCheck` hooks a test app so each answer
 * is checked; mismatches are collected in `openapiViolations` (the e2e setup asserts it stays empty).
 */
import { Ajv, type ValidateFunction } from "ajv";
import type { FastifyInstance } from "fastify";

type Json = Record<string, unknown>;

/** Every mismatch seen since the last reset: "METHOD path status: why". */
export const openapiViolations: string[] = [];

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

/** Compiles the document's response schemas, by "METHOD /path/{param}" and status. */
function compile(
  doc: Json,
): (method: string, url: string, status: number) => ValidateFunction | "undocumented" | null {
  const ajv = new Ajv({ strict: false, allErrors: false });
  ajv.addKeyword("example");
  // The named components, so `$ref: "#/components/schemas/X"` resolves (see toJsonSchema).
  ajv.addSchema(toJsonSchema({ components: doc.components ?? {} }), COMPONENTS_ID);
  const routes: { method: string; re: RegExp; op: Operation }[] = [];
  for (const [path, ops] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    const re = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(ops)) routes.push({ method: method.toUpperCase(), re, op });
  }
  const cache = new Map<string, ValidateFunction | "undocumented" | null>();
  return (method, url, status) => {
    const path = url.split("?")[0]!;
    const key = `${method} ${path} ${status}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const route = routes.find((r) => r.method === method && r.re.test(path));
    let result: ValidateFunction | "undocumented" | null = null;
    if (route !== undefined) {
      const response = route.op.responses?.[String(status)];
      if (response === undefined) result = "undocumented";
      else {
        const schema = response.content?.["application/json"]?.schema;
        result = schema === undefined ? null : ajv.compile(toJsonSchema(schema));
      }
    }
    cache.set(key, result);
    return result;
  };
}

const COMPONENTS_ID = "openapi-components";

/** OpenAPI 3.0's `nullable` as JSON Schema; component references point into the added components schema. */
function toJsonSchema(s: unknown): Json {
  if (Array.isArray(s)) return s.map(toJsonSchema) as unknown as Json;
  if (s === null || typeof s !== "object") return s as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(s))
    out[k] =
      k === "properties"
        ? mapValues(v as Json)
        : k === "$ref" && typeof v === "string" && v.startsWith("#/components/")
          ? `${COMPONENTS_ID}${v}`
          : toJsonSchema(v);
  if (out.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  delete out.nullable;
  return out;
}

function mapValues(o: Json): Json {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toJsonSchema(v)]));
}

/** Checks every JSON answer of `app` against its document (routes hidden from it are skipped). */
export function installResponseCheck(app: FastifyInstance): void {
  let check: ReturnType<typeof compile> | undefined;
  app.addHook("onSend", async (req, reply, payload) => {
    const url = req.routeOptions.url;
    if (url === undefined || url === "/openapi.json" || url === "/metrics" || url.startsWith("/docs"))
      return payload;
    if (typeof payload !== "string" || !String(reply.getHeader("content-type") ?? "").includes("json"))
      return payload;
    check ??= compile(app.swagger() as unknown as Json);
    const v = check(req.method, req.url, reply.statusCode);
    const where = `${req.method} ${url} ${reply.statusCode}`;
    if (v === "undocumented") openapiViolations.push(`${where}: status not documented`);
    else if (v !== null && !v(JSON.parse(payload)))
      openapiViolations.push(`${where}: ${JSON.stringify(v.errors)}`);
    return payload;
  });
}
