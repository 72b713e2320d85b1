/** POST /v1/trades/execute (spec 4.3). */
import type { FastifyInstance } from "fastify";
import { badRequest, EXECUTION } from "../../core/errors.js";
import { executeTrade, type TradeDeps } from "../../domain/trade/service.js";
import { executeRoute, type RouteDeps } from "../execute/execute-route.js";
import { executePost } from "../execute/execute-post.js";
import { confirmationProperties, fillSchema, closedObject, documentedFields } from "../openapi/schemas.js";
import { TRADE_PRICING_FIELDS, TRADE_TARGET_FIELDS } from "../openapi/trade-fields.js";

// Fields are documented but not typed: the spec's own rules (aliases, number-or-string amounts, boolean
// strings) and their exact error texts are applied by the domain parser, not by schema validation.
const tradeBody = documentedFields({
  action: { description: "buy or sell (alias side)" },
  ...TRADE_TARGET_FIELDS,
  amount: {
    description:
      "SOL (buy, denominated_in_sol), token atomic units, or a percentage string for sells; required unless amount_tokens",
  },
  amount_tokens: {
    description:
      'sells: whole tokens as decimal text (e.g. "1.5"), converted with the mint\'s decimals; not with amount',
  },
  ...TRADE_PRICING_FIELDS,
  simulate: { description: "default true" },
  confirm: { description: "default true" },
  measure_timing: { description: "default false" },
  wallet: { description: "managed wallet public key; the key's default wallet otherwise" },
});

const TIMING_PHASES = {
  wallet: "parsing the request and selecting the wallet",
  amount: "reading the venue state (or the warm cache) and quoting",
  build: "building and signing the transaction",
  sender: "sending it",
  confirmation: "waiting for confirmation",
  database: "recording the execution",
  total: "the whole request",
} as const;

const timingSchema = {
  type: "object",
  description: "milliseconds per phase (with measure_timing: true)",
  properties: Object.fromEntries(
    Object.entries(TIMING_PHASES).map(([k, d]) => [k, { type: "integer", description: `ms: ${d}` }]),
  ),
  additionalProperties: false,
};

// Issue 22: the same bounds as expected_output, one unit per field whatever the venue.
const tradeBoundsProperties = {
  max_sol_in_lamports: {
    type: "string",
    description: "buys: the most lamports the trade instruction can spend (fees, tip and rent not included)",
  },
  min_tokens_out: {
    type: "string",
    description: "buys: the fewest token atomic units received (exact for a token-amount buy)",
  },
  tokens_in: { type: "string", description: "sells: the token atomic units sold" },
  min_sol_out_lamports: { type: "string", description: "sells: the fewest lamports received" },
} as const;

/** What a raced trade (`routes` / `mev_protect`) adds to its answer. */
const raceProperties = {
  landed_via: {
    type: ["string", "null"],
    description: "raced trades: the route whose variant landed (null: none seen landed yet, or confirm off)",
  },
  slots_to_land: {
    type: ["integer", "null"],
    description: "raced trades: slots from the send to the landing",
  },
  routes: {
    type: "array",
    description: "raced trades: every variant sent, one per route",
    items: {
      type: "object",
      properties: {
        route: { type: "string", description: "the route this variant was sent to" },
        signature: { type: "string", description: "the variant's signature" },
        tip_lamports: { type: "string", description: "the tip this variant pays if it lands" },
        sent_at: { type: "string", description: "ISO 8601" },
        answered_ms: { type: "integer", description: "the route's answer time" },
        accepted: { type: "boolean", description: "whether the route accepted it" },
        error: { type: "string", description: "why the route did not accept it" },
      },
      required: ["route", "signature", "tip_lamports", "sent_at", "answered_ms", "accepted"],
      additionalProperties: false,
    },
  },
  nonce: {
    type: "object",
    description: "raced trades: the wallet's durable nonce account every variant advances",
    properties: {
      address: { type: "string", description: "the nonce account (derived from the wallet)" },
      created: { type: "boolean", description: "this trade created it" },
      rent_lamports: {
        type: "string",
        description: "its rent-exempt balance, paid by the wallet, returned on withdraw",
      },
    },
    required: ["address", "created", "rent_lamports"],
    additionalProperties: false,
  },
} as const;

const tradeResponse = closedObject(
  {
    wallet: { type: "string", description: "the managed wallet that traded" },
    action: { type: "string", enum: ["buy", "sell"], description: "buy or sell" },
    mint: { type: "string", description: "the token mint" },
    amount: { type: "string", description: "the amount as requested (SOL, token units or a percentage)" },
    amount_units: {
      type: "integer",
      description: "the amount in atomic units: lamports when denominated in SOL, token units otherwise",
    },
    amount_units_text: {
      type: "string",
      description: "amount_units as decimal text (exact above 2^53; every other amount is text)",
    },
    denominated_in_sol: { type: "boolean", description: "true when amount is SOL" },
    ...confirmationProperties,
    venue: {
      type: "string",
      enum: ["bonding_curve", "launchswap"],
      description: "where it traded: the launch bonding curve or the launchswap pool",
    },
    pool: { type: ["string", "null"], description: "the launchswap pool; null on the bonding curve" },
    state_source: {
      type: "string",
      enum: ["cache", "read", "event"],
      description:
        "cache: the warm state of a watched mint was used (no read); event: a buy of a mint created lately, " +
        "built from its create event (no read); read: the trade read it",
    },
    state_slot: { type: "integer", description: "slot of the state the quote used" },
    expected_output: {
      type: "string",
      description:
        "the slippage bound in the transaction; its unit depends on the trade (see the *_lamports / *_tokens fields)",
    },
    ...tradeBoundsProperties,
    fill: fillSchema,
    timing_ms: timingSchema,
    ...raceProperties,
  },
  {
    required: [
      "wallet",
      "action",
      "mint",
      "amount",
      "amount_units",
      "amount_units_text",
      "denominated_in_sol",
      "signature",
      "confirmed",
      "confirmation_status",
      "venue",
      "pool",
      "expected_output",
      "state_source",
      "state_slot",
    ],
  },
);

/** Registers the trade route. */
export function tradeRoutes(app: FastifyInstance, deps: RouteDeps<TradeDeps>): void {
  executePost(
    app,
    {
      path: "/v1/trades/execute",
      scope: "trade",
      tag: "trades",
      summary: "Buy or sell a launch token on the bonding curve or its launchswap pool",
      body: tradeBody,
      response: tradeResponse,
      // Before schema validation, so a body that is not an object gets the service's own text.
      preValidation: (req, _reply, done) => {
        const b: unknown = req.body;
        done(
          typeof b !== "object" || b === null || Array.isArray(b)
            ? badRequest(EXECUTION.bodyObject)
            : undefined,
        );
      },
    },
    executeRoute(deps, executeTrade),
  );
}
