/**
 * The trade execution kind (POST /v1/trades/execute, spec 4.3): its one body description, parser, spend plan,
 * run and answer, registered from the kind list (src/domain/kinds.ts).
 */
import {
  FIELD,
  PATTERN,
  closedObject,
  fieldIs,
  implies,
  confirmationProperties,
  fillSchema,
  present,
} from "../../core/json-schema.js";
import { defineKind } from "../execution/kind.js";
import { addSigner, type SpendPlan } from "../keys/spend.js";
import { LAUNCHSWAP, VENUES } from "../../core/venues.js";
import { raceProperties } from "./race-schema.js";
import { parseTradeRequest, type TradeIntent } from "./request.js";
import { runTrade, type TradeDeps } from "./service.js";

/** The mint and the explicit pool (GET /v1/quote documents them alike). */
export const TRADE_TARGET_FIELDS = {
  mint: { description: "token mint address (alias token_mint)" },
  pool: { description: "explicit launchswap pool (SOL-quoted; forces the launchswap venue)" },
} as const;

/** How the amount is read and the slippage bound applied (GET /v1/quote documents them alike). */
export const TRADE_PRICING_FIELDS = {
  denominated_in_sol: { description: "default true for buy, false for sell (alias denominatedInSol)" },
  slippage: { description: "percent, default 2, at most 50, up to 2 decimals" },
  slippage_bps: { description: "basis points 0..5000; not together with slippage" },
} as const;

/** A trade's amount: SOL text, atomic units or a sell percentage (which one fits the side: TRADE_RULES_SCHEMA). */
const TRADE_AMOUNT = {
  oneOf: [
    { type: "string", pattern: `${PATTERN.sol}|${PATTERN.sellPercent}` },
    { type: "number", minimum: 1e-9, maximum: 1e10, multipleOf: 1e-9 },
  ],
};

const isSell = fieldIs("action", "sell");
const isBuy = fieldIs("action", "buy");

/**
 * The spec's amount table across fields, for the document (the parser enforces it with the spec's texts):
 * amount or amount_tokens, not both; slippage or slippage_bps, not both; amount_tokens only on sells; a sell is
 * never in SOL and sells atomic units or a percentage; a token-amount buy buys atomic units, a SOL buy SOL.
 */
export const TRADE_RULES_SCHEMA = {
  oneOf: [{ required: ["amount"] }, { required: ["amount_tokens"] }],
  allOf: [
    { not: present("slippage", "slippage_bps") },
    implies(present("amount_tokens"), isSell),
    implies(isSell, {
      not: fieldIs("denominated_in_sol", true),
      properties: {
        amount: {
          oneOf: [
            { type: "string", pattern: `${PATTERN.unitsText}|${PATTERN.sellPercent}` },
            FIELD.units.oneOf[1],
          ],
        },
      },
    }),
    implies(
      { allOf: [isBuy, fieldIs("denominated_in_sol", false)] },
      { properties: { amount: FIELD.units } },
    ),
    implies(isBuy, { properties: { amount: FIELD.sol } }),
  ],
};

// Addresses of the examples: valid base58 public keys, not real accounts of anyone.
const MINT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

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
      enum: [...VENUES],
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

/** What a trade may spend, as far as its intent tells (also the plan of a fired order). */
export function planTradeSpend(t: TradeIntent, plan: SpendPlan): void {
  planTradeMoves(t, plan);
  addSigner(plan, t.wallet);
}

/** A trade's mint, venue and SOL amount in `plan`, whoever signs it (a managed wallet or an outside one). */
export function planTradeMoves(t: TradeIntent, plan: SpendPlan): void {
  plan.mints = [t.mint];
  if (t.pool !== null) plan.venues.push(LAUNCHSWAP);
  // A SOL buy spends its amount; a token-unit buy is bounded by the wallet's balance; a sell spends fees.
  if (t.action === "buy") plan.amountLamports = t.amount.kind === "sol" ? t.amount.lamports : null;
}

/** The trade kind. */
export const tradeKind = defineKind({
  kind: "trade",
  path: "/v1/trades/execute",
  scope: "trade",
  budget: "trade",
  tag: "trades",
  summary: "Buy or sell a launch token on the bonding curve or its launchswap pool",
  body: {
    properties: {
      action: { description: "buy or sell (alias side)", type: "string", enum: ["buy", "sell"] },
      mint: { ...TRADE_TARGET_FIELDS.mint, ...FIELD.address },
      pool: { ...TRADE_TARGET_FIELDS.pool, ...FIELD.address },
      amount: {
        description:
          'SOL with up to 9 decimals (buy, denominated_in_sol), token atomic units (a positive integer), or a percentage string for sells ("50%": above 0, at most 100, up to 2 decimals); required unless amount_tokens',
        ...TRADE_AMOUNT,
      },
      amount_tokens: {
        description:
          'sells: whole tokens as decimal text (e.g. "1.5"), converted with the mint\'s decimals; not with amount',
        ...FIELD.wholeTokens,
      },
      denominated_in_sol: { ...TRADE_PRICING_FIELDS.denominated_in_sol, ...FIELD.bool },
      slippage: { ...TRADE_PRICING_FIELDS.slippage, ...FIELD.slippage },
      slippage_bps: { ...TRADE_PRICING_FIELDS.slippage_bps, ...FIELD.slippageBps },
      simulate: { description: "default true", ...FIELD.bool },
      confirm: { description: "default true", ...FIELD.bool },
      measure_timing: { description: "default false", ...FIELD.bool },
      wallet: {
        description: "managed wallet public key; the key's default wallet otherwise",
        ...FIELD.address,
      },
      routes: {
        description:
          'racing (ROUTES): "all" or a list of route names; one variant per route under the wallet\'s durable nonce',
        oneOf: [
          { type: "string", enum: ["all"] },
          { type: "array", items: FIELD.str },
        ],
      },
      mev_protect: { description: "racing: only routes that protect from sandwiching", ...FIELD.bool },
    },
    required: ["action", "mint"],
    rules: TRADE_RULES_SCHEMA,
    aliases: ["side", "token_mint", "denominatedInSol"],
  },
  response: tradeResponse,
  examples: {
    buy: {
      summary: "Buy with 0.1 SOL at 2 % slippage (default wallet)",
      value: { action: "buy", mint: MINT, amount: "0.1", slippage: 2 },
    },
    sell_half: {
      summary: "Sell half of the wallet's tokens, without waiting for confirmation",
      value: { action: "sell", mint: MINT, amount: "50%", wallet: WALLET, confirm: false },
    },
  },
  parse: (body) => parseTradeRequest(body),
  plan: planTradeSpend,
  run: (deps: TradeDeps, apiKeyId, intent) => runTrade(deps, apiKeyId, intent),
  // A body that is not an object gets the service's own text before anything else.
  objectBodyFirst: true,
});
