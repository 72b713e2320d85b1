/**
 * The one description of POST /v1/orders' body, beside its parsers (request.ts, snipe.ts): every field with its
 * type in `ORDER_BODY_FIELDS`, and per kind (and side, where the side changes the amount's unit) the fields it
 * takes and needs in `ORDER_VARIANTS`. The document states the body as these fields plus `oneOf` the variants;
 * the parsers' field lists come from the same variants. A new order kind: its fields here, one variant entry.
 */
import { FIELD, PATTERN, fieldIs, present } from "../../core/json-schema.js";
import { PRIORITY_FEE_FIELDS } from "../../core/fee-fields.js";
import { ORDER_KINDS, STANDING_KINDS } from "./model.js";

type Json = Record<string, unknown>;

/** A positive price in SOL per whole token: text with at most 18 decimals, or a JSON number (9 decimals). */
const price = {
  oneOf: [
    { type: "string", pattern: "^(?:[1-9]\\d{0,20}(?:\\.\\d{1,18})?|0?\\.\\d{0,17}[1-9])$" },
    { type: "number", minimum: 1e-9, maximum: 1e10, multipleOf: 1e-9 },
  ],
};
/** A rise from the entry price in percent: above 0, at most 2 decimals ("+50%", "50", 50). */
const risePercent = {
  oneOf: [
    { type: "string", pattern: "^\\+?(?:[1-9]\\d{0,5}(?:\\.\\d{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%?$" },
    { type: "number", minimum: 0.01, maximum: 999_999.99, multipleOf: 0.01 },
  ],
};
const underHundredText = "(?:[1-9]\\d?(?:\\.\\d{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%?";
/** A fall from the entry price in percent, with either sign: above 0, below 100, at most 2 decimals. */
const fallPercent = {
  oneOf: [
    { type: "string", pattern: `^[+-]?${underHundredText}$` },
    { type: "number", minimum: 0.01, maximum: 99.99, multipleOf: 0.01 },
    { type: "number", minimum: -99.99, maximum: -0.01, multipleOf: 0.01 },
  ],
};
/** A trailing stop's distance: above 0, below 100 percent, at most 2 decimals. */
const trailPercent = {
  oneOf: [
    { type: "string", pattern: `^${underHundredText}$` },
    { type: "number", minimum: 0.01, maximum: 99.99, multipleOf: 0.01 },
  ],
};
/** A sell's size: token atomic units, or a percentage of the position at fire time ending in "%". */
const sellAmount = { oneOf: [...FIELD.units.oneOf, { type: "string", pattern: PATTERN.sellPercent }] };
/** An RFC 3339 date-time with its zone, in the future (that it lies ahead is the parser's: no clock here). */
const dateTime = {
  type: "string",
  pattern:
    "^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$",
};
/** A copy order's ratio: above 0, at most 100, at most 6 decimals. */
const ratio = {
  oneOf: [
    {
      type: "string",
      // No lookahead (the property test's generator cannot use one): each count of leading zeros spelled out.
      pattern:
        "^\\+?(?:[1-9]\\d?(?:\\.\\d{1,6})?|100(?:\\.0{1,6})?|0?\\.(?:[1-9]\\d{0,5}|0[1-9]\\d{0,4}|00[1-9]\\d{0,3}|000[1-9]\\d{0,2}|0000[1-9]\\d?|00000[1-9]))$",
    },
    { type: "number", minimum: 0.000001, maximum: 100, multipleOf: 0.000001 },
  ],
};
/** A copy order's largest price move in percent: above 0, at most 1000, at most 2 decimals. */
const maxMove = {
  oneOf: [
    {
      type: "string",
      pattern: "^\\+?(?:[1-9]\\d{0,2}(?:\\.\\d{1,2})?|1000(?:\\.0{1,2})?|0?\\.(?:[1-9]\\d?|0[1-9]))%?$",
    },
    { type: "number", minimum: 0.01, maximum: 1000, multipleOf: 0.01 },
  ],
};
/** One level of a bracket: exactly one of price, percent or sol_out. */
const bracketLeg = (percent: object): Json => ({
  type: "object",
  oneOf: (
    [
      ["price", price],
      ["percent", percent],
      ["sol_out", FIELD.sol],
    ] as const
  ).map(([name, type]) => ({
    type: "object",
    properties: { [name]: type },
    required: [name],
    additionalProperties: false,
  })),
});

/** Every field of an order body, typed and described (the order kinds' variants pick from them). */
export const ORDER_BODY_FIELDS = {
  kind: {
    type: "string",
    enum: [...ORDER_KINDS, ...STANDING_KINDS],
    description: "limit, take_profit, stop_loss, trailing_stop, bracket, on_migration, snipe or copy",
  },
  mint: { ...FIELD.address, description: "the token mint (not for snipe or copy)" },
  side: {
    type: "string",
    enum: ["buy", "sell"],
    description: "limit: buy or sell; on_migration: buy or sell (default sell); snipe buys; the others sell",
  },
  // anyOf: a digit text is SOL for a buy and token units for a sell (the variants say which).
  amount: {
    anyOf: [...FIELD.sol.oneOf, ...sellAmount.oneOf],
    description: 'buys: SOL; sells: token atomic units or a percentage (default "100%")',
  },
  price: { ...price, description: "the level in SOL per whole token" },
  percent: {
    anyOf: [...risePercent.oneOf, ...fallPercent.oneOf],
    description:
      "take_profit: a rise (+50); stop_loss: a fall (-20 or 20), percent from entry_price or the wallet's position's average entry",
  },
  sol_out: { ...FIELD.sol, description: "take_profit / stop_loss: SOL the amount would get" },
  take_profit: { ...bracketLeg(risePercent), description: "bracket: { price | percent | sol_out }" },
  stop_loss: { ...bracketLeg(fallPercent), description: "bracket: { price | percent | sol_out }" },
  trail_percent: { ...trailPercent, description: "trailing_stop: percent below the highest price seen" },
  entry_price: {
    ...price,
    description:
      "the entry of percent levels (SOL per whole token); default the average entry price of the wallet's position in the mint",
  },
  wallet: { ...FIELD.address, description: "managed wallet; the key's default wallet otherwise" },
  slippage: { ...FIELD.slippage, description: "percent, as a trade (not with slippage_bps)" },
  slippage_bps: { ...FIELD.slippageBps, description: "as a trade (not with slippage)" },
  priority_fee: { ...FIELD.solOrZero, description: "SOL per transaction, as a trade (alias priorityFee)" },
  priorityFee: { ...FIELD.solOrZero, description: "alias of priority_fee" },
  tip: { ...FIELD.sol, description: "SOL, as a trade" },
  expires_at: {
    ...dateTime,
    description: "RFC 3339 with its zone, in the future; an open order expires then",
  },
  max_retries: {
    type: "integer",
    minimum: 0,
    maximum: 10,
    description: "sends again of a sell that failed on chain (0 to 10, default 2)",
  },
  dry_run: { ...FIELD.bool, description: "true: answer what the order would do now, store nothing" },
  creators: {
    type: "array",
    minItems: 1,
    maxItems: 100,
    items: FIELD.address,
    description: "snipe: buy tokens created by one of these addresses",
  },
  name_pattern: {
    type: "string",
    minLength: 1,
    maxLength: 64,
    description: "snipe: name glob, case-insensitive (* any run, ? one character)",
  },
  symbol_pattern: {
    type: "string",
    minLength: 1,
    maxLength: 64,
    description: "snipe: symbol glob, case-insensitive",
  },
  mayhem: { ...FIELD.bool, description: "snipe: only tokens whose mayhem flag is this" },
  cashback: { ...FIELD.bool, description: "snipe: only tokens whose cashback flag is this" },
  min_initial_buy: {
    ...FIELD.sol,
    description: "snipe: at least this SOL bought in the create transaction (at most max_initial_buy)",
  },
  max_initial_buy: { ...FIELD.sol, description: "snipe: at most this SOL bought in the create transaction" },
  max_per_hour: {
    type: "integer",
    minimum: 1,
    maximum: 1000,
    description: "snipe: at most this many buys in any hour (1 to 1000)",
  },
  follow: {
    type: "array",
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    items: FIELD.address,
    description: "copy: the wallets whose trades are copied (1 to 20 addresses, none of yours)",
  },
  ratio: {
    ...ratio,
    description:
      "copy: a copied buy is their SOL × ratio (above 0, at most 100, 6 decimals); or amount: fixed SOL",
  },
  sell_sizing: {
    type: "string",
    enum: ["percent", "ratio"],
    description:
      "copy: percent (default: sell the share of our position they sold of theirs) or ratio (their tokens × ratio)",
  },
  buys_only: { ...FIELD.bool, description: "copy: copy their buys only" },
  sells_only: { ...FIELD.bool, description: "copy: copy their sells only" },
  max_per_token: {
    ...FIELD.sol,
    description: "copy: at most this SOL bought per token (a buy is cut to what is left)",
  },
  max_per_day: {
    ...FIELD.sol,
    description: "copy: at most this SOL bought in any 24 h (a buy is cut to what is left)",
  },
  delay_ms: {
    type: "integer",
    minimum: 0,
    maximum: 60_000,
    description: "copy: wait this long (ms) after their trade before copying it",
  },
  max_price_move: {
    ...maxMove,
    description: "copy: skip (recorded) when the price moved more than this percent since their trade",
  },
} as const;

type FieldName = keyof typeof ORDER_BODY_FIELDS;

/** What one kind (and side) of order takes: its fields, the ones it needs, narrower types of some. */
interface OrderVariant {
  readonly kind: string;
  /** The side this variant is; `required` when the side must be given. */
  readonly side?: { readonly value: "buy" | "sell"; readonly required: boolean };
  readonly fields: readonly FieldName[];
  readonly required: readonly FieldName[];
  readonly types?: Partial<Record<FieldName, object>>;
  /** Rules across this variant's fields (one of the levels, a snipe's rule). */
  readonly rules?: Json;
}

/** What every order body may carry. */
const COMMON: readonly FieldName[] = [
  "wallet",
  "slippage",
  "slippage_bps",
  ...PRIORITY_FEE_FIELDS,
  "tip",
  "expires_at",
  "dry_run",
];
/** What every order on one mint may carry (a snipe has no mint). */
const ON_MINT: readonly FieldName[] = ["mint", ...COMMON, "entry_price", "max_retries"];
/** The fields of a snipe's rule: a snipe names at least one. */
export const SNIPE_RULE_FIELDS = [
  "creators",
  "name_pattern",
  "symbol_pattern",
  "mayhem",
  "cashback",
  "min_initial_buy",
  "max_initial_buy",
] as const satisfies readonly FieldName[];
const oneLevel = (percent: object): Pick<OrderVariant, "types" | "rules"> => ({
  types: { percent, amount: sellAmount },
  rules: { oneOf: [present("price"), present("percent"), present("sol_out")] },
});
const buys = { amount: FIELD.sol };
const sells = { amount: sellAmount };

/** The variants of the order body: a body is exactly one of them. */
export const ORDER_VARIANTS: readonly OrderVariant[] = [
  {
    kind: "limit",
    side: { value: "buy", required: true },
    fields: [...ON_MINT, "amount", "price"],
    required: ["mint", "side", "amount", "price"],
    types: buys,
  },
  {
    kind: "limit",
    side: { value: "sell", required: true },
    fields: [...ON_MINT, "amount", "price"],
    required: ["mint", "side", "price"],
    types: sells,
  },
  {
    kind: "take_profit",
    side: { value: "sell", required: false },
    fields: [...ON_MINT, "amount", "price", "percent", "sol_out"],
    required: ["mint"],
    ...oneLevel(risePercent),
  },
  {
    kind: "stop_loss",
    side: { value: "sell", required: false },
    fields: [...ON_MINT, "amount", "price", "percent", "sol_out"],
    required: ["mint"],
    ...oneLevel(fallPercent),
  },
  {
    kind: "trailing_stop",
    side: { value: "sell", required: false },
    fields: [...ON_MINT, "amount", "trail_percent"],
    required: ["mint", "trail_percent"],
    types: sells,
  },
  {
    kind: "bracket",
    side: { value: "sell", required: false },
    fields: [...ON_MINT, "amount", "take_profit", "stop_loss"],
    required: ["mint", "take_profit", "stop_loss"],
    types: sells,
  },
  {
    kind: "on_migration",
    side: { value: "buy", required: true },
    fields: [...ON_MINT, "amount"],
    required: ["mint", "side", "amount"],
    types: buys,
  },
  {
    kind: "on_migration",
    side: { value: "sell", required: false },
    fields: [...ON_MINT, "amount"],
    required: ["mint"],
    types: sells,
  },
  {
    kind: "snipe",
    side: { value: "buy", required: false },
    fields: [...COMMON, "amount", ...SNIPE_RULE_FIELDS, "max_per_hour"],
    required: ["amount"],
    types: buys,
    // At least one rule field (that min_initial_buy is not above max_initial_buy is the parser's).
    rules: { anyOf: SNIPE_RULE_FIELDS.map((f) => present(f)) },
  },
  {
    kind: "copy",
    fields: [
      ...COMMON,
      "follow",
      "amount",
      "ratio",
      "sell_sizing",
      "buys_only",
      "sells_only",
      "max_per_token",
      "max_per_day",
      "delay_ms",
      "max_price_move",
    ],
    required: ["follow"],
    types: buys,
    rules: {
      allOf: [
        { not: present("amount", "ratio") },
        { not: { allOf: [fieldIs("buys_only", true), fieldIs("sells_only", true)] } },
        // A size (amount or ratio) unless the order copies sells only; a fixed amount is for buys.
        { anyOf: [present("amount"), present("ratio"), fieldIs("sells_only", true)] },
        { not: { allOf: [present("amount"), fieldIs("sells_only", true)] } },
        // Sizing sells by ratio needs the ratio.
        { anyOf: [{ not: fieldIs("sell_sizing", "ratio") }, present("ratio")] },
      ],
    },
  },
];

/** The fields a body of `kind` may carry (its variants' union, `kind` and `side` included). */
export function orderFieldsOf(kind: string): ReadonlySet<string> {
  const names = new Set<string>(["kind", "side"]);
  for (const v of ORDER_VARIANTS) if (v.kind === kind) for (const f of v.fields) names.add(f);
  return names;
}

/** One variant as a closed JSON Schema object. */
function variantSchema(v: OrderVariant): Json {
  const names: FieldName[] = ["kind", ...(v.side !== undefined ? (["side"] as const) : []), ...v.fields];
  const properties: Json = {};
  for (const n of names) properties[n] = v.types?.[n] ?? ORDER_BODY_FIELDS[n];
  properties.kind = { type: "string", enum: [v.kind] };
  if (v.side !== undefined) properties.side = { type: "string", enum: [v.side.value] };
  const { description: _d, ...amount } = (properties.amount ?? {}) as Json;
  if (properties.amount !== undefined) properties.amount = amount;
  const rules = [
    { not: present("slippage", "slippage_bps") },
    { not: present(...PRIORITY_FEE_FIELDS) },
    ...(v.rules !== undefined ? [v.rules] : []),
  ];
  return {
    type: "object",
    properties,
    required: ["kind", ...v.required],
    additionalProperties: false,
    allOf: rules,
  };
}

/** POST /v1/orders' body as the document states it: the fields, and exactly one variant. */
export function orderBodySchema(): Json {
  return {
    type: "object",
    properties: ORDER_BODY_FIELDS,
    required: ["kind"],
    oneOf: ORDER_VARIANTS.map(variantSchema),
  };
}
