/** Cashback endpoints (spec 4.6, 4.7): POST /v1/cashback/check and POST /v1/cashback/claim/execute. */
import type { FastifyInstance } from "fastify";
import { claimCashback, type ClaimDeps } from "../domain/cashback/claim.js";
import { checkCashback } from "../domain/cashback/check.js";
import { executeRouteWithOptionalBody, type RouteDeps } from "./execute-route.js";
import {
  apiKeySecurity,
  optionalBody,
  confirmationProperties,
  confirmationRequired,
  executionErrors,
  lamportsSchema as lamports,
  solSchema as sol,
} from "./schemas.js";

// Fields are documented, not typed: the domain parser applies the spec's rules and exact texts (a schema type
// would let Ajv coerce a single string into `wallets`, for instance).
const checkBody = optionalBody({
  wallet: { description: "one wallet address (any address, managed or not)" },
  wallets: { description: "1 to 100 wallet addresses; duplicates removed; not together with wallet" },
});

const claimBody = optionalBody({
  wallet: { description: "managed wallet public key; the key's default wallet otherwise" },
  claim_bonding_curve: { description: "default true" },
  claim_launchswap: { description: "default true" },
  confirm: { description: "default true; waits for each claim's confirmation" },
});

const cashbackEntry = {
  type: "object",
  properties: {
    wallet: { type: "string" },
    launch_bonding_lamports: lamports,
    launch_bonding_sol: sol,
    launchswap_wsol_lamports: lamports,
    launchswap_wsol: sol,
    total_claimable_lamports: lamports,
    total_claimable_sol: sol,
    accounts: {
      type: "object",
      properties: {
        launch_user_volume_accumulator: { type: "string" },
        launchswap_user_volume_accumulator: { type: "string" },
        launchswap_wsol_ata: { type: "string" },
      },
      required: [
        "launch_user_volume_accumulator",
        "launchswap_user_volume_accumulator",
        "launchswap_wsol_ata",
      ],
      additionalProperties: false,
    },
  },
  required: [
    "wallet",
    "launch_bonding_lamports",
    "launch_bonding_sol",
    "launchswap_wsol_lamports",
    "launchswap_wsol",
    "total_claimable_lamports",
    "total_claimable_sol",
    "accounts",
  ],
  additionalProperties: false,
} as const;

const checkResponse = {
  type: "object",
  properties: {
    wallets: { type: "array", items: cashbackEntry },
    totals: {
      type: "object",
      properties: {
        launch_bonding_lamports: lamports,
        launch_bonding_sol: sol,
        launchswap_wsol_lamports: lamports,
        launchswap_wsol: sol,
        combined_lamports: lamports,
        combined_sol: sol,
      },
      required: [
        "launch_bonding_lamports",
        "launch_bonding_sol",
        "launchswap_wsol_lamports",
        "launchswap_wsol",
        "combined_lamports",
        "combined_sol",
      ],
      additionalProperties: false,
    },
    rpc_slots: { type: "array", items: { type: "integer" } },
  },
  required: ["wallets", "totals", "rpc_slots"],
  additionalProperties: false,
} as const;

const claimResponse = {
  type: "object",
  properties: {
    wallet: { type: "string" },
    transactions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          kind: { type: "string", enum: ["bonding_curve", "launchswap"] },
          claimable_lamports: lamports,
          ...confirmationProperties,
        },
        required: ["kind", "claimable_lamports", ...confirmationRequired],
        additionalProperties: false,
      },
    },
  },
  required: ["wallet", "transactions"],
  additionalProperties: false,
} as const;

/** Registers the cashback check and claim routes (authenticated by the global auth hook). */
export function cashbackRoutes(app: FastifyInstance, deps: RouteDeps<ClaimDeps>): void {
  const common = { tags: ["cashback"], security: apiKeySecurity };

  app.post(
    "/v1/cashback/check",
    {
      config: { scope: "read" },
      schema: {
        ...common,
        summary: "Read claimable cashback of wallets (read-only; any address)",
        body: checkBody,
        response: { 200: checkResponse, ...executionErrors },
      },
    },
    executeRouteWithOptionalBody(deps, checkCashback),
  );

  app.post(
    "/v1/cashback/claim/execute",
    {
      config: { idempotent: true, scope: "trade" },
      schema: {
        ...common,
        summary: "Claim a managed wallet's cashback: one transaction per source with something to claim",
        body: claimBody,
        response: { 200: claimResponse, ...executionErrors },
      },
    },
    executeRouteWithOptionalBody(deps, claimCashback),
  );
}
