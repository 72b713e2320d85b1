/**
 * The create execution kind (POST /v1/laser/create, spec 4.4): token creation with an optional atomic developer
 * buy. Its body fields are a bundle's create leg too (CREATE_FIELD_TYPES, CREATE_ALIASES).
 */
import { FIELD, implies, closedObject, confirmationProperties, present } from "../../core/json-schema.js";
import { BONDING_CURVE } from "../../core/venues.js";
import { defineKind } from "../execution/kind.js";
import { addSigner, CREATE_RENT_BOUND_LAMPORTS } from "../keys/spend.js";
import { parseCreateRequest } from "./request.js";
import { runCreate, type CreateDeps } from "./service.js";

/**
 * An absolute ipfs:// URI, or an http(s):// one whose host is a name (the parser asks URL for a host; a name
 * whose last label starts with a letter is never read as an IPv4 address).
 */
const METADATA_URI_PATTERN =
  "^(?:[Ii][Pp][Ff][Ss]://\\S+|[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?:/\\S*)?)$";

/** The create model's field types (spec 4.4), shared with a bundle's create leg. */
export const CREATE_FIELD_TYPES = {
  // Lengths in characters; the parser counts UTF-8 bytes (a gap for non-ASCII text, stated in the descriptions).
  name: { type: "string", minLength: 1, maxLength: 32, pattern: "\\S" },
  symbol: { type: "string", minLength: 1, maxLength: 13, pattern: "\\S" },
  uri: { type: "string", minLength: 1, maxLength: 200, pattern: METADATA_URI_PATTERN },
  wallet: FIELD.address,
  mayhem_mode: FIELD.bool,
  cashback: FIELD.bool,
  initial_buy: FIELD.sol,
  slippage: FIELD.positiveSlippage,
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
      name: { description: "token name: not blank, at most 32 bytes of UTF-8", ...CREATE_FIELD_TYPES.name },
      symbol: {
        description: "token symbol: not blank, at most 13 bytes of UTF-8",
        ...CREATE_FIELD_TYPES.symbol,
      },
      uri: {
        description:
          "absolute ipfs://, https:// or http:// metadata URI with a host, no whitespace, at most 200 bytes (aliases metadataUrl, metadataUri)",
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
    // A slippage bounds the developer buy: only with initial_buy.
    rules: implies(present("slippage"), { required: ["initial_buy"] }),
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
