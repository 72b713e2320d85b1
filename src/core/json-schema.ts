/** JSON Schema building blocks shared by the execution kinds' descriptors and the OpenAPI document (pure data). */
import { BASE58_ADDRESS } from "./addresses.js";

/**
 * Texts the parsers accept, as JSON Schema patterns (a subset: the parsers also take signs, exponents, spaces
 * and trailing zeros past the limit; the document states the plain form). Each stays without look-arounds so
 * generators (fast-check's stringMatching) can draw from it.
 */
export const PATTERN = {
  /** Positive SOL, at most 9 decimals, below 10^10. */
  sol: "^(?:[1-9]\\d{0,9}(?:\\.\\d{1,9})?|0?\\.\\d{0,8}[1-9])$",
  /** SOL of 0 or more, at most 9 decimals. */
  solOrZero: "^\\d{1,10}(?:\\.\\d{1,9})?$",
  /** Percent 0 to 50, at most 2 decimals, "%" optional. */
  slippage: "^(?:50(?:\\.00?)?|[1-4]?\\d(?:\\.\\d{1,2})?)%?$",
  /** Percent above 0, at most 50, at most 2 decimals, "%" optional (create's slippage). */
  positiveSlippage:
    "^(?:50(?:\\.00?)?|[1-4]\\d(?:\\.\\d{1,2})?|[1-9](?:\\.\\d{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%?$",
  /** SOL of at least 0.000001 (a bundle's tip), at most 9 decimals. */
  tipSol: "^(?:[1-9]\\d{0,9}(?:\\.\\d{1,9})?|0?\\.\\d{0,5}[1-9]\\d{0,3})$",
  /** Percent above 0, at most 100, at most 2 decimals, "%" optional. */
  percent: "^(?:100(?:\\.00?)?|[1-9]\\d?(?:\\.\\d{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%?$",
  /** A percentage sell: above 0, at most 100, at most 2 decimals, ending in "%". */
  sellPercent: "^(?:100(?:\\.00?)?|[1-9]\\d?(?:\\.\\d{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%$",
  /** Positive whole tokens as decimal text (the mint's decimals bound the places). */
  wholeTokens: "^(?:[1-9]\\d{0,14}(?:\\.\\d{1,12})?|0?\\.\\d{0,11}[1-9])$",
  /** A non-negative integer that fits a u64, as text (20 digits at most; the parser also bounds the value). */
  u64Text: "^\\d{1,19}$",
  /**
   * An http(s) URL whose host is a name (its last label starts with a letter, so URL never reads it as an IPv4
   * address), with no credentials, port or whitespace.
   */
  httpUrl:
    "^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:/\\S*)?$",
  /** A base58 secret key (64 bytes) or seed (32 bytes). */
  secretKey: "^[1-9A-HJ-NP-Za-km-z]{32,88}$",
  /** A positive integer of token atomic units, as text (fits a u64). */
  unitsText: "^[1-9]\\d{0,18}$",
} as const;

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
  /** A positive SOL amount with at most 9 decimals: decimal text, or a JSON number. */
  sol: {
    oneOf: [
      { type: "string", pattern: PATTERN.sol },
      { type: "number", minimum: 1e-9, maximum: 1e10, multipleOf: 1e-9 },
    ],
  },
  /** A SOL amount of 0 or more with at most 9 decimals (a priority fee: 0 asks for none). */
  solOrZero: {
    oneOf: [
      { type: "string", pattern: PATTERN.solOrZero },
      { type: "number", minimum: 0, maximum: 1e10, multipleOf: 1e-9 },
    ],
  },
  /** A trade's slippage percent: 0 to 50 with at most 2 decimals (text may end in "%"). */
  slippage: {
    oneOf: [
      { type: "string", pattern: PATTERN.slippage },
      { type: "number", minimum: 0, maximum: 50, multipleOf: 0.01 },
    ],
  },
  /** A create's slippage percent: above 0, at most 50, at most 2 decimals (text may end in "%"). */
  positiveSlippage: {
    oneOf: [
      { type: "string", pattern: PATTERN.positiveSlippage },
      { type: "number", minimum: 0.01, maximum: 50, multipleOf: 0.01 },
    ],
  },
  /** A share in percent: greater than 0, at most 100, at most 2 decimals (text may end in "%"). */
  percent: {
    oneOf: [
      { type: "string", pattern: PATTERN.percent },
      { type: "number", minimum: 0.01, maximum: 100, multipleOf: 0.01 },
    ],
  },
  /** Whole tokens (`amount_tokens`): decimal text, or a JSON number (decimals checked against the mint). */
  wholeTokens: {
    oneOf: [
      { type: "string", pattern: PATTERN.wholeTokens },
      { type: "number", minimum: 1e-12, maximum: 1e15 },
    ],
  },
  /** u64 integers (fee_reserve_lamports): a digit string keeps values above 2^53 exact. */
  bigInteger: {
    oneOf: [
      { type: "string", pattern: PATTERN.u64Text },
      { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    ],
  },
  /** Token atomic units: a positive integer (digit text, or a JSON safe integer). */
  units: {
    oneOf: [
      { type: "string", pattern: PATTERN.unitsText },
      { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    ],
  },
  /** Basis points of slippage: 0 to 5000. */
  slippageBps: { type: "integer", minimum: 0, maximum: 5000 },
} as const;

/**
 * A pattern of the decimal texts of the integers 1 to `max` (no leading zeros): the query parameters typed as text
 * whose parsers want a bounded positive integer.
 */
export function positiveIntPattern(max: number): string {
  const m = String(max);
  const alts: string[] = [];
  if (m.length > 1) alts.push(`[1-9]\\d{0,${m.length - 2}}`);
  // Same length as max: max's first i digits, then a smaller digit, then any digits.
  for (let i = 0; i < m.length; i++) {
    const d = Number(m[i]);
    const lo = i === 0 ? 1 : 0;
    if (d - 1 >= lo) {
      const rest = m.length - i - 1;
      alts.push(`${m.slice(0, i)}[${lo}-${d - 1}]${rest > 0 ? `\\d{${rest}}` : ""}`);
    }
  }
  alts.push(m);
  return `^(?:${alts.join("|")})$`;
}

/**
 * "`when` implies `then`" in the keywords OpenAPI 3.0 has (no if/then there): either `when` fails or `then` holds.
 */
export function implies(when: object, then: object): { anyOf: [{ not: object }, object] } {
  return { anyOf: [{ not: when }, then] };
}

/**
 * Every one of `names` is present: `required` with the fields named under `properties` too, so a linter reading
 * the subschema alone (inside `not`) finds them defined.
 */
export function present(...names: string[]): { required: string[]; properties: Record<string, object> } {
  return { required: names, properties: Object.fromEntries(names.map((n) => [n, {}])) };
}

/** The field `name` equals `value` (and is present): OpenAPI 3.0 has no `const`. */
export function fieldIs(name: string, value: string | boolean): object {
  return { required: [name], properties: { [name]: { enum: [value] } } };
}

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
