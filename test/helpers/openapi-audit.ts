/**
 * Checks over a whole OpenAPI document (issues 22 and 23), shared by the document tests: every response
 * field described, no response shape copied inline where a named component belongs, examples where asked.
 * Each returns the offending places ("METHOD /path status: field"), so a failure names what to fix.
 */
type Json = Record<string, unknown>;

const COMPONENT_PREFIX = "#/components/schemas/";

/** Every operation of the document: method, path and the operation object. */
export function operationsOf(doc: Json): [string, string, Json][] {
  return Object.entries((doc.paths ?? {}) as Record<string, Json>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => [m.toUpperCase(), path, op as Json] as [string, string, Json]),
  );
}

function componentOf(doc: Json, ref: string): Json | undefined {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  return ref.startsWith(COMPONENT_PREFIX) ? schemas[ref.slice(COMPONENT_PREFIX.length)] : undefined;
}

/** A field is described by its own description or, when it is only a `$ref`, by its component's. */
function isDescribed(doc: Json, s: Json): boolean {
  if (typeof s.description === "string" && s.description.trim() !== "") return true;
  if (typeof s.$ref === "string") return isDescribed(doc, componentOf(doc, s.$ref) ?? {});
  return false;
}

/** Walks a schema: `visit` sees every property (name, schema, where); components are walked once, apart. */
function walkSchema(s: unknown, where: string, visit: (where: string, prop: Json) => void): void {
  if (s === null || typeof s !== "object" || Array.isArray(s)) return;
  const o = s as Json;
  for (const [name, prop] of Object.entries((o.properties ?? {}) as Record<string, Json>)) {
    visit(`${where}.${name}`, prop);
    walkSchema(prop, `${where}.${name}`, visit);
  }
  walkSchema(o.items, `${where}[]`, visit);
  if (typeof o.additionalProperties === "object") walkSchema(o.additionalProperties, `${where}{}`, visit);
  for (const k of ["oneOf", "anyOf", "allOf"])
    ((o[k] ?? []) as unknown[]).forEach((x, i) => walkSchema(x, `${where}|${k}[${i}]`, visit));
}

/** Every JSON response schema of the document, with where it is; then every component schema. */
function responseSchemas(doc: Json): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [m, p, op] of operationsOf(doc)) {
    for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
      for (const [type, media] of Object.entries((r.content ?? {}) as Record<string, Json>))
        if (type.includes("json")) out.push([`${m} ${p} ${status}`, media.schema]);
    }
  }
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, unknown>;
  for (const [name, s] of Object.entries(schemas)) out.push([`components.schemas.${name}`, s]);
  return out;
}

/** Response fields (nested too) without a description; component schemas without one. */
export function undescribedFields(doc: Json): string[] {
  const missing: string[] = [];
  for (const [where, schema] of responseSchemas(doc))
    walkSchema(schema, where, (at, prop) => {
      if (!isDescribed(doc, prop)) missing.push(at);
    });
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, s] of Object.entries(schemas))
    if (!isDescribed(doc, s)) missing.push(`components.schemas.${name}`);
  return missing;
}

/** Calls `fn` on a schema and every schema nested in it (properties, items, combinators). */
function eachSubschema(s: unknown, fn: (o: Json) => void): void {
  if (s === null || typeof s !== "object" || Array.isArray(s)) return;
  const o = s as Json;
  fn(o);
  for (const prop of Object.values((o.properties ?? {}) as Record<string, unknown>)) eachSubschema(prop, fn);
  eachSubschema(o.items, fn);
  if (typeof o.additionalProperties === "object") eachSubschema(o.additionalProperties, fn);
  for (const k of ["oneOf", "anyOf", "allOf"])
    for (const x of (o[k] ?? []) as unknown[]) eachSubschema(x, fn);
}

/** The canonical text of an object schema's shape (property names and types, recursively). */
function shapeOf(s: Json): string {
  const props = Object.entries((s.properties ?? {}) as Record<string, Json>)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}:${typeof v.$ref === "string" ? v.$ref : String(v.type)}`);
  return props.join(",");
}

/**
 * Inline object schemas (of `minProperties` properties or more) whose shape appears in more than one
 * operation: each should be one named component referenced by `$ref`.
 */
export function repeatedInlineShapes(doc: Json, minProperties = 3): string[] {
  const seen = new Map<string, Set<string>>();
  for (const [where, schema] of responseSchemas(doc)) {
    const owner = where.split(" ").slice(0, 2).join(" ");
    eachSubschema(schema, (o) => {
      if (o.properties !== undefined && Object.keys(o.properties as Json).length >= minProperties) {
        const shape = shapeOf(o);
        seen.set(shape, (seen.get(shape) ?? new Set()).add(owner));
      }
    });
  }
  return [...seen.entries()]
    .filter(([, owners]) => owners.size > 1)
    .map(([shape, owners]) => `${[...owners].join(" and ")}: {${shape}}`);
}

/** Operations (of `paths`) whose JSON request body carries no example. */
export function bodiesWithoutExamples(doc: Json, paths: readonly string[]): string[] {
  return operationsOf(doc)
    .filter(([m, p]) => m === "POST" && paths.includes(p))
    .filter(([, , op]) => {
      const media = ((op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        "application/json"
      ];
      const examples = media?.examples as Record<string, unknown> | undefined;
      return media?.example === undefined && (examples === undefined || Object.keys(examples).length === 0);
    })
    .map(([m, p]) => `${m} ${p}`);
}
