/**
 * The fuzz request bodies of a route: valid templates, mutated templates, random objects over the schema's
 * fields, non-object JSON, raw malformed texts, deep nesting, and bodies near or over the size limit.
 */
import fc from "fast-check";
import type { FuzzRoute } from "./openapi-routes.js";
import { BUILTIN_ADDRESSES, randomAddress, type CaseContext } from "./context.js";
import { templates } from "./templates.js";
import { nest, RAW_JSON_TEXTS, weirdString, weirdValue } from "./values.js";

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
export interface BodyChoice {
  family: string;
  /** JSON body (serialized later) or raw bytes. */
  json?: unknown;
  raw?: string | Buffer;
}
/** Bodies for a route: mutated templates first, then the other families. */
export function bodyArb(route: FuzzRoute, ctx: CaseContext): fc.Arbitrary<BodyChoice | undefined> {
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
