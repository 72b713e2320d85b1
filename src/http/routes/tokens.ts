/** POST /v1/laser/create (spec 4.4): token creation with an optional atomic developer buy. */
import type { FastifyInstance } from "fastify";
import { createToken, type CreateDeps } from "../../domain/create/service.js";
import { executeRoute, type RouteDeps } from "../execute/execute-route.js";
import { executePost } from "../execute/execute-post.js";
import { confirmationProperties, closedObject, documentedFields } from "../openapi/schemas.js";

// Documented, not typed: aliases, number-or-string amounts and boolean strings are the domain parser's, with
// the spec's exact texts.
const createBody = documentedFields({
  name: { description: "token name (at most 32 bytes)" },
  symbol: { description: "token symbol (at most 13 bytes)" },
  uri: {
    description: "absolute ipfs://, https:// or http:// metadata URI (aliases metadataUrl, metadataUri)",
  },
  wallet: { description: "creator and payer; the key's default wallet otherwise" },
  mayhem_mode: { description: "default false (alias mayhemMode)" },
  cashback: { description: "default false; today's program refuses cashback coins (6082)" },
  initial_buy: {
    description:
      "developer buy in SOL, at most 9 decimals (aliases initialBuy, buyAmountSol, devBuy, dev_buy)",
  },
  slippage: {
    description:
      "percent for initial_buy: default 2, > 0, at most 50 (aliases initialBuySlippage, devBuySlippage, dev_buy_slippage)",
  },
  confirm: { description: "default true" },
});

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

/** Registers the create route. */
export function tokenRoutes(app: FastifyInstance, deps: RouteDeps<CreateDeps>): void {
  executePost(
    app,
    {
      path: "/v1/laser/create",
      scope: "create",
      tag: "tokens",
      summary: "Create a launch token (server-generated mint), optionally with an atomic developer buy",
      body: createBody,
      response: createResponseSchema,
    },
    executeRoute(deps, createToken),
  );
}
