/**
 * The outside-wallet kinds (issue 32): POST /v1/trades/build answers an unsigned transaction for a wallet the
 * service does not hold; POST /v1/transactions/send takes it back signed and executes it as the key's trade.
 */
import { FIELD, closedObject, confirmationProperties, fillSchema } from "../../core/json-schema.js";
import { VENUES } from "../../core/venues.js";
import { defineKind } from "../execution/kind.js";
import type { SpendPlan } from "../keys/spend.js";
import { planTradeMoves, TRADE_RULES_SCHEMA, tradeKind } from "../trade/kind.js";
import { parseBuildRequest, runBuild, type BuildDeps, type BuildIntent } from "./build.js";
import type { RacedSendDeps } from "./raced-send.js";
import { raceProperties } from "../trade/race-schema.js";
import { parseSendAnyRequest, runSendAny } from "./send-legs.js";
import { builtInitialBuySchema, bundleLegResultSchema } from "./leg-schemas.js";

const MINT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
const SIGNER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const text = (description: string): object => ({ type: "string", description });
/** The trade fields a build takes (the managed trade's others choose the wallet or how it is sent). */
const BUILD_TRADE_FIELDS = [
  "action",
  "mint",
  "pool",
  "amount",
  "amount_tokens",
  "denominated_in_sol",
  "slippage",
  "slippage_bps",
  "routes",
  "mev_protect",
] as const;

/** What a build may spend: the trade's mint, venue and SOL amount (the signer is outside: no wallet binding). */
export function planBuildSpend(b: BuildIntent, plan: SpendPlan): void {
  planTradeMoves(b.trade, plan);
}

/** The build kind: nothing is signed or recorded; the key's policy judges what it asks to build. */
export const buildKind = defineKind({
  kind: "build",
  path: "/v1/trades/build",
  scope: "build",
  budget: "trade",
  tag: "outside wallets",
  summary: "Build an unsigned buy or sell for a wallet the service does not hold",
  body: {
    properties: {
      public_key: {
        description: "the outside wallet that will sign and pay (alias publicKey)",
        ...FIELD.address,
      },
      // The trade's own fields and rules, as POST /v1/trades/execute states them (one description).
      ...Object.fromEntries(BUILD_TRADE_FIELDS.map((n) => [n, tradeKind.body.properties[n]!])),
      nonce_account: {
        description:
          "racing: a nonce account the outside wallet controls (default: its own, POST /v1/nonce-accounts/build)",
        ...FIELD.address,
      },
    },
    rules: TRADE_RULES_SCHEMA,
    required: ["public_key", "action", "mint"],
    aliases: ["publicKey", "side", "token_mint", "denominatedInSol", "nonceAccount"],
  },
  response: closedObject(
    {
      transaction: text(
        "the unsigned v0 transaction, base64: sign it as fee payer, then POST /v1/transactions/send (absent on a raced build: see variants)",
      ),
      public_key: text("the outside wallet: fee payer and only signer"),
      action: { type: "string", enum: ["buy", "sell"], description: "buy or sell" },
      mint: text("the token mint"),
      amount: text("the amount as requested"),
      amount_units_text: text("the amount in atomic units, decimal text"),
      denominated_in_sol: { type: "boolean", description: "true when amount is SOL" },
      venue: { type: "string", enum: [...VENUES], description: "where it trades" },
      pool: { type: ["string", "null"], description: "the launchswap pool; null on the bonding curve" },
      instruction: text("the program instruction the transaction carries"),
      expected_output: text("the slippage bound in the transaction"),
      max_sol_in_lamports: text("buys: the most lamports the trade instruction can spend"),
      min_tokens_out: text("buys: the fewest token atomic units received"),
      tokens_in: text("sells: the token atomic units sold"),
      min_sol_out_lamports: text("sells: the fewest lamports received"),
      state_source: { type: "string", enum: ["cache", "read", "event"], description: "as on a trade" },
      state_slot: { type: "integer", description: "slot of the state the quote used" },
      compute_unit_limit: { type: "integer", description: "the compute-unit limit written" },
      compute_unit_price_micro_lamports: text("the compute-unit price written"),
      tip_lamports: text("the relay tip the transaction pays (0 without one)"),
      last_valid_block_height: {
        type: "integer",
        description: "send before this block height (absent on a raced build: the nonce keeps it valid)",
      },
      variants: {
        type: "array",
        description:
          "a raced build (routes / mev_protect): one unsigned variant per route, each paying its route's tip, all advancing the nonce; sign each, send them together as transactions",
        items: closedObject({
          route: text("the route this variant is sent to"),
          transaction: text("the unsigned v0 transaction, base64"),
          tip_lamports: text("the tip it pays its route if it lands"),
          tip_account: { type: ["string", "null"], description: "the route's tip account it pays" },
        }),
      },
      nonce: {
        ...closedObject({
          address: text("the durable nonce account"),
          value: text("the nonce value every variant uses as its blockhash"),
          authority: text("its authority: the outside wallet"),
        }),
        description: "a raced build: the nonce every variant advances (at most one lands)",
      },
    },
    { required: ["public_key", "action", "mint", "venue", "expected_output"] },
  ),
  examples: {
    buy: {
      summary: "Build a 0.1 SOL buy for an outside wallet",
      value: { public_key: SIGNER, action: "buy", mint: MINT, amount: "0.1", slippage: 2 },
    },
    raced: {
      summary: "Build a 0.1 SOL buy raced over every configured route under the wallet's nonce",
      value: { public_key: SIGNER, action: "buy", mint: MINT, amount: "0.1", routes: "all" },
    },
  },
  records: null,
  parse: (body) => parseBuildRequest(body),
  plan: planBuildSpend,
  run: (deps: BuildDeps, _apiKeyId, intent) => runBuild(deps, _apiKeyId, intent),
});

/** The send kind: its spend is the built transaction's worst case, judged at record time. */
export const sendKind = defineKind({
  kind: "send",
  path: "/v1/transactions/send",
  scope: "trade",
  budget: "trade",
  tag: "outside wallets",
  summary:
    "Send a transaction built by POST /v1/trades/build or /v1/laser/create/build, or a bundle's legs built by /v1/laser/bundle/build, signed by their outside wallets",
  body: {
    properties: {
      transaction: {
        description: "the signed transaction (a trade or a create), base64",
        type: "string",
        pattern: "^[A-Za-z0-9+/]+={0,2}$",
      },
      transactions: {
        description:
          "a raced build's signed variants (each raced over its own route), or every leg of one bundle built by POST /v1/laser/bundle/build in leg order (sent as one bundle; a create or bundle needs the create scope); base64, instead of transaction",
        type: "array",
        minItems: 1,
        maxItems: 32,
        items: { type: "string", pattern: "^[A-Za-z0-9+/]+={0,2}$" },
      },
      simulate: { description: "default true", ...FIELD.bool },
      confirm: { description: "default true", ...FIELD.bool },
    },
    // One transaction, a raced build's variants, or a bundle's legs.
    rules: { oneOf: [{ required: ["transaction"] }, { required: ["transactions"] }] },
    aliases: ["signed_transaction", "signed_transactions"],
  },
  response: closedObject(
    {
      ...confirmationProperties,
      wallet: text("the outside wallet that signed (a bundle's: its first leg's)"),
      kind: {
        type: "string",
        enum: ["create", "bundle"],
        description: "what was sent when it is not a trade: a create, or a bundle's legs",
      },
      action: { type: "string", enum: ["buy", "sell"], description: "a trade's side" },
      mint: text("the token mint"),
      venue: { type: "string", enum: [...VENUES], description: "where it traded" },
      pool: { type: ["string", "null"], description: "the launchswap pool; null on the bonding curve" },
      amount_units: text("the amount in atomic units"),
      expected_output: text("the slippage bound in the transaction"),
      instruction: text("the program instruction the transaction carries"),
      fill: fillSchema,
      landed_via: raceProperties.landed_via,
      slots_to_land: raceProperties.slots_to_land,
      routes: raceProperties.routes,
      nonce_account: text("raced sends: the durable nonce account every variant advances"),
      creator: text("a create's creator: the outside wallet"),
      metadata_uri: text("a create's metadata URI"),
      initial_buy: builtInitialBuySchema,
      bundle_id: { type: "string", description: "a bundle's id, 64 hex characters" },
      results: {
        type: "array",
        description: "a bundle's legs, in bundle order",
        items: bundleLegResultSchema,
      },
    },
    { required: ["execution_id", "signature", "confirmed", "confirmation_status", "wallet", "mint"] },
  ),
  examples: {
    send: {
      summary: "Send a signed build",
      value: { transaction: "AQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fIA==" },
    },
    raced: {
      summary: "Send a raced build's signed variants together",
      value: {
        transactions: [
          "AQABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fIA==",
          "AQECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ==",
        ],
      },
    },
  },
  // What a send records follows its build: a trade, a create, or one bundle of all its legs.
  records: ["trade", "create", "bundle"],
  parse: (body) => parseSendAnyRequest(body),
  // The body names no amount: the record-time step reserves the built transaction's worst case.
  plan: (_intent: unknown, plan: SpendPlan) => {
    plan.amountLamports = null;
  },
  run: (deps: RacedSendDeps, apiKeyId, intent) => runSendAny(deps, apiKeyId, intent),
});
