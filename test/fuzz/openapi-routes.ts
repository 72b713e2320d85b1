/** The fuzzer's view of the app's OpenAPI document: one entry per route and method, read from app.swagger(). */

/** What the fuzzer needs to know of one operation. */
export interface FuzzRoute {
  /** Upper-case HTTP method. */
  method: string;
  /** OpenAPI path template, e.g. "/v1/wallets/{public_key}". */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Property names of the JSON request body schema (empty when the route takes no body). */
  bodyFields: string[];
  requiredFields: string[];
  hasBody: boolean;
  /** Takes the optional Idempotency-Key header (the execution routes). */
  idempotent: boolean;
  /** Needs x-api-key. */
  authed: boolean;
  /** Response status codes the document lists. */
  documented: number[];
  /** "METHOD path", the key figures are counted under. */
  key: string;
}

interface OpenApiParameter {
  in?: string;
  name?: string;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: { properties?: object; required?: string[] } }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
}

const METHODS = ["get", "post", "put", "delete", "patch"];

/** Every operation of an OpenAPI 3 document (as @fastify/swagger builds it), in document order. */
export function routesOf(doc: unknown): FuzzRoute[] {
  const paths = (doc as { paths?: Record<string, Record<string, OpenApiOperation>> }).paths ?? {};
  const routes: FuzzRoute[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [m, op] of Object.entries(ops)) {
      if (!METHODS.includes(m)) continue;
      const params = op.parameters ?? [];
      const names = (where: string) =>
        params.filter((p) => p.in === where && typeof p.name === "string").map((p) => p.name as string);
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      const method = m.toUpperCase();
      routes.push({
        method,
        path,
        pathParams: names("path"),
        queryParams: names("query"),
        bodyFields: Object.keys(schema?.properties ?? {}),
        requiredFields: schema?.required ?? [],
        hasBody: schema !== undefined,
        idempotent: names("header").includes("idempotency-key"),
        authed: (op.security ?? []).length > 0,
        documented: Object.keys(op.responses ?? {})
          .map(Number)
          .filter((n) => Number.isInteger(n)),
        key: `${method} ${path}`,
      });
    }
  }
  return routes;
}
