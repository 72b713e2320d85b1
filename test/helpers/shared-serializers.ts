/**
 * Response serializers shared by the test apps of one test process. Building an app compiles a serializer
 * for every response schema of every route (fast-json-stringify, which first validates each schema): about
 * half a second of CPU per app, paid again by each of the many apps a test file builds from the same schemas.
 * These compilers are Fastify's own (the same package Fastify calls, resolved from Fastify), but an app whose
 * schema and shared schemas are identical, as JSON, to an earlier app's gets the function built for that one:
 * fast-json-stringify's output depends on nothing else, and the function keeps no state between calls.
 * A schema that is not plain JSON (a function, a RegExp, …) is never shared: it is compiled as usual.
 */
import { createRequire } from "node:module";
import type { FastifyServerOptions } from "fastify";

type RouteSchema = { schema: unknown; method?: string; url?: string; httpStatus?: string };
type Compile = (route: RouteSchema) => unknown;
type BuildSerializer = (externalSchemas: unknown, serializerOpts: unknown) => Compile;

// The fast-json-stringify Fastify's compiler package calls (resolved from Fastify, then from that package).
const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
const fromCompiler = createRequire(fromFastify.resolve("@fastify/fast-json-stringify-compiler"));
const fastJsonStringify = fromCompiler("fast-json-stringify") as (
  schema: unknown,
  options: unknown,
) => unknown;

/** The JSON text of `v`, or undefined when `v` holds anything JSON would drop or change. */
function plainJson(v: unknown): string | undefined {
  let plain = true;
  const text = JSON.stringify(v, (_k, x: unknown) => {
    const t = typeof x;
    if (t === "function" || t === "undefined" || t === "bigint" || t === "symbol") plain = false;
    else if (t === "number" && !Number.isFinite(x as number)) plain = false;
    else if (t === "object" && x !== null && !Array.isArray(x)) {
      const proto = Object.getPrototypeOf(x) as unknown;
      if (proto !== Object.prototype && proto !== null) plain = false;
    }
    return x;
  });
  return plain ? text : undefined;
}

const contexts = new Map<string, number>();
const built = new Map<string, unknown>();

/** A number per distinct (shared schemas, options) JSON; undefined when not plain JSON. */
function contextOf(externalSchemas: unknown, serializerOpts: unknown): number | undefined {
  const text = plainJson([externalSchemas ?? null, serializerOpts ?? null]);
  if (text === undefined) return undefined;
  let n = contexts.get(text);
  if (n === undefined) {
    n = contexts.size;
    contexts.set(text, n);
  }
  return n;
}

/**
 * The steps of @fastify/fast-json-stringify-compiler's SerializerSelector (5.x), Fastify's default: the options
 * with the shared schemas, from which a route schema's own $id is dropped for it and every later route of the
 * context. The key names exactly the inputs fast-json-stringify is given.
 */
const buildSerializer: BuildSerializer = (externalSchemas, serializerOpts) => {
  const compile = (route: RouteSchema) =>
    fastJsonStringify(route.schema, { ...(serializerOpts as object), schema: shared });
  let shared = externalSchemas as Record<string, unknown> | undefined;
  let context = contextOf(shared, serializerOpts);
  return (route) => {
    const id = (route.schema as { $id?: unknown } | null)?.$id;
    if (shared && typeof id === "string" && shared[id] !== undefined) {
      shared = { ...shared };
      delete shared[id];
      context = contextOf(shared, serializerOpts);
    }
    const schema = plainJson(route.schema);
    if (context === undefined || schema === undefined) return compile(route);
    const key = `${context}:${schema}`;
    let fn = built.get(key);
    if (fn === undefined) {
      fn = compile(route);
      built.set(key, fn);
    }
    return fn;
  };
};

/** For `buildApp`'s `schemaController`. */
export const sharedSerializers: NonNullable<FastifyServerOptions["schemaController"]> = {
  compilersFactory: { buildSerializer } as NonNullable<
    NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]
  >,
};
