/**
 * The create execution kind (POST /v1/laser/create, spec 4.4): token creation with an optional atomic developer
 * buy. Its body fields are a bundle's create leg too (CREATE_FIELD_TYPES, CREATE_ALIASES).
 */
import { FIELD, closedObject, confirmationProperties } from "../../core/json-schema.js";
import { BONDING_CURVE } from "../../core/venues.js";
import { defineKind } from "../execution/kind.js";
import { addSigner, CREATE_RENT_BOUND_LAMPORTS } from "../keys/spend.js";
import { parseCreateRequest } from "./request.js";
import { runCreate, type CreateDeps } from "./service.js";

/** The create model's field types (spec 4.4), shared with a bundle's create leg. */
export const CREATE_FIELD_TYPES = {
  name: FIELD.str,
  symbol: FIELD.str,
  uri: FIELD.str,
  wallet: FIELD.address,
  mayhem_mode: FIELD.bool,
  cashback: FIELD.bool,
  initial_buy: FIELD.amount,
  slippage: FIELD.amount,
} as const;

/** Other names the create parser reads for the model's fields. */
export const CREATE_ALIASES = [
  "metadataUrl",
  "metadataUri",
  "initialBuy",
  "buyAmountSol",
  "devBuy",
  "dev_buy",
  "initialBuySlippage",
  "devBuySlippage",
  "dev_buy_slippage",
  "mayhemMode",
] as const;

/** The spec's token creation result; a whitelist (the mint key can never be serialized). */
const createResponseSchema = closedObject(
  {
    mint: { type: "string", description: "the new token's mint (server-generated)" },
    creator: { type: "string", description: "the managed wallet that created and paid" },
    metadata_uri: { type: "string", description: "the metadata URI written on chain" },
    ...confirmationProperties,
    initial_buy: closedObject(
      {
        amount: { type: "string", description: "SOL as requested" },
        amount_lamports: { type: "integer", description: "the same in lamports" },
        slippage_bps: { type: "integer", description: "the slippage applied, basis points" },
        expected_output: { type: "string", description: "minimum token atomic units requested" },
      },
      { description: "the developer buy in the same transaction; absent without one" },
    ),
  },
  { optional: ["execution_id", "initial_buy"] },
);

/** The create kind. */
export const createKind = defineKind({
  kind: "create",
  path: "/v1/laser/create",
  scope: "create",
  budget: "create",
  tag: "tokens",
  summary: "Create a launch token (server-generated mint), optionally with an atomic developer buy",
  body: {
    properties: {
      name: { description: "token name (at most 32 bytes)", ...CREATE_FIELD_TYPES.name },
      symbol: { description: "token symbol (at most 13 bytes)", ...CREATE_FIELD_TYPES.symbol },
      uri: {
        description: "absolute ipfs://, https:// or http:// metadata URI (aliases metadataUrl, metadataUri)",
        ...CREATE_FIELD_TYPES.uri,
      },
      wallet: {
        description: "creator and payer; the key's default wallet otherwise",
        ...CREATE_FIELD_TYPES.wallet,
      },
      mayhem_mode: { description: "default false (alias mayhemMode)", ...CREATE_FIELD_TYPES.mayhem_mode },
      cashback: {
        description: "default false; today's program refuses cashback coins (6082)",
        ...CREATE_FIELD_TYPES.cashback,
      },
      initial_buy: {
        description:
          "developer buy in SOL, at most 9 decimals (aliases initialBuy, buyAmountSol, devBuy, dev_buy)",
        ...CREATE_FIELD_TYPES.initial_buy,
      },
      slippage: {
        description:
          "percent for initial_buy: default 2, > 0, at most 50 (aliases initialBuySlippage, devBuySlippage, dev_buy_slippage)",
        ...CREATE_FIELD_TYPES.slippage,
      },
      confirm: { description: "default true", ...FIELD.bool },
    },
    required: ["name", "symbol", "uri"],
    aliases: CREATE_ALIASES,
  },
  response: createResponseSchema,
  examples: {
    create_with_buy: {
      summary: "Create a token with a 0.5 SOL developer buy",
      value: {
        name: "Example",
        symbol: "EXM",
        uri: "https://example.com/metadata.json",
        initial_buy: "0.5",
        slippage: 5,
      },
    },
  },
  parse: (body) => parseCreateRequest(body),
  plan: (c, plan) => {
    addSigner(plan, c.wallet);
    plan.amountLamports = c.initialBuy?.lamports ?? 0n;
    plan.rentLamports = CREATE_RENT_BOUND_LAMPORTS;
    // The token starts on its curve.
    plan.venues.push(BONDING_CURVE);
  },
  run: (deps: CreateDeps, apiKeyId, request) => runCreate(deps, apiKeyId, request),
});
