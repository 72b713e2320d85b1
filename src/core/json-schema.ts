/** JSON Schema building blocks shared by the execution kinds' descriptors and the OpenAPI document (pure data). */
import { BASE58_ADDRESS } from "./addresses.js";

/**
 * The types of request fields as the document states them. The domain parsers validate (aliases,
 * number-or-string amounts, boolean strings, the spec's texts); these say the same for generated clients.
 */
export const FIELD = {
  str: { type: "string" },
  /** A base58 address (mint, wallet, destination, pool): the parsers refuse anything else. */
  address: { type: "string", pattern: BASE58_ADDRESS.source },
  /** A mint, or `SOL` in any case with surrounding spaces (send asset: the parser trims and upper-cases it). */
  mintOrSol: { type: "string", pattern: `^\\s*[Ss][Oo][Ll]\\s*$|${BASE58_ADDRESS.source}` },
  bool: { type: "boolean" },
  int: { type: "integer" },
  /** Amounts are exact decimal text; a JSON number is accepted too. */
  amount: { oneOf: [{ type: "string" }, { type: "number" }] },
  /** Whole tokens (`amount_tokens`): decimal text, or a JSON number. */
  wholeTokens: { oneOf: [{ type: "string" }, { type: "number" }] },
  /** u64 integers (fee_reserve_lamports): a digit string keeps values above 2^53 exact. */
  bigInteger: { oneOf: [{ type: "string" }, { type: "integer" }] },
} as const;

/**
 * A named component of the OpenAPI document (issue 23): registered with `app.addSchema` (components.ts) and
 * referenced as `ref("Name")`, so the document carries one `components.schemas.Name` instead of inline copies.
 */
export function ref<N extends string>(name: N): { $ref: `${N}#` } {
  return { $ref: `${name}#` };
}

export const lamportsSchema = { type: "integer", description: "lamports" } as const;
const solSchema = { type: "string", description: "SOL with 9 decimals" } as const;

/** A lamports field described by `description`, then its SOL twin ("the same in SOL"), in that order. */
export function lamportsAndSol<L extends string, S extends string>(
  lamportsKey: L,
  solKey: S,
  description: string,
): Record<L, { type: "integer"; description: string }> & Record<S, { type: "string"; description: string }> {
  return {
    [lamportsKey]: { ...lamportsSchema, description },
    [solKey]: { ...solSchema, description: "the same in SOL" },
  } as Record<L, { type: "integer"; description: string }> &
    Record<S, { type: "string"; description: string }>;
}

/**
 * The execution record's id (issue 22). Not in `required`: an Idempotency-Key replay of a response stored before
 * the field existed must still serialize.
 */
export const executionIdSchema = {
  type: "string",
  description:
    "id of the execution record: GET /v1/executions/{id}, or find it with GET /v1/executions?signature=",
} as const;

/** The confirmation fields of one submitted transaction (spread into a response's properties). */
export const confirmationProperties = {
  execution_id: executionIdSchema,
  signature: { type: "string", description: "the transaction signature (base58)" },
  confirmed: {
    type: "boolean",
    description:
      "true when the transaction reached confirmation_status within the wait; false: sent, outcome not known",
  },
  confirmation_status: {
    type: ["string", "null"],
    description: "processed, confirmed or finalized as last seen; null when not seen (or confirm: false)",
  },
} as const;

/** The Fill component (registered by the HTTP layer), by reference. */
export const fillSchema = ref("Fill");

/** What `closedObject` writes around the properties: the component's id, a description, the required fields. */
export interface ClosedObjectOptions {
  $id?: string;
  description?: string;
  /** Default: every property, in their order, but the `optional` ones. */
  required?: readonly string[];
  /** Properties left out of the default `required` (e.g. execution_id: see executionIdSchema). */
  optional?: readonly string[];
}

/**
 * An object schema listing every field it may carry (a whitelist: unlisted fields are never serialized),
 * keywords in the document's order: `$id`, `type`, `description`, `properties`, `required`.
 */
// `{}`: no options, so nothing but the schema's own keywords in the type.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function closedObject<P extends Record<string, object>, O extends ClosedObjectOptions = {}>(
  properties: P,
  options?: O,
): Omit<O, "required" | "optional"> & {
  type: "object";
  properties: P;
  required: readonly string[];
  additionalProperties: false;
} {
  const { $id, description, required, optional = [] } = options ?? {};
  return {
    ...($id !== undefined ? { $id } : {}),
    type: "object",
    ...(description !== undefined ? { description } : {}),
    properties,
    required: required ?? Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  } as Omit<O, "required" | "optional"> & {
    type: "object";
    properties: P;
    required: readonly string[];
    additionalProperties: false;
  };
}
