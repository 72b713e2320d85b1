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
    wallet: { type: "string", description: "the wallet checked" },
    launch_bonding_lamports: { ...lamports, description: "claimable on the bonding curve program" },
    launch_bonding_sol: { ...sol, description: "the same in SOL" },
    launchswap_wsol_lamports: { ...lamports, description: "claimable on launchswap, as wrapped SOL" },
    launchswap_wsol: { ...sol, description: "the same in SOL" },
    total_claimable_lamports: { ...lamports, description: "both together" },
    total_claimable_sol: { ...sol, description: "the same in SOL" },
    accounts: {
      type: "object",
      description: "the accounts read (addresses, base58)",
      properties: {
        launch_user_volume_accumulator: {
          type: "string",
          description: "the wallet's volume accumulator of the launch program",
        },
        launchswap_user_volume_accumulator: {
          type: "string",
          description: "the wallet's volume accumulator of launchswap",
        },
        launchswap_wsol_ata: { type: "string", description: "the accumulator's wrapped-SOL token account" },
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
    wallets: { type: "array", items: cashbackEntry, description: "one entry per wallet, in request order" },
    totals: {
      type: "object",
      description: "the sums over every wallet",
      properties: {
        launch_bonding_lamports: { ...lamports, description: "bonding curve cashback, all wallets" },
        launch_bonding_sol: { ...sol, description: "the same in SOL" },
        launchswap_wsol_lamports: { ...lamports, description: "launchswap cashback, all wallets" },
        launchswap_wsol: { ...sol, description: "the same in SOL" },
        combined_lamports: { ...lamports, description: "both venues, all wallets" },
        combined_sol: { ...sol, description: "the same in SOL" },
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
    rpc_slots: {
      type: "array",
      items: { type: "integer" },
      description: "the slots the reads were answered at",
    },
  },
  required: ["wallets", "totals", "rpc_slots"],
  additionalProperties: false,
} as const;

const claimResponse = {
  type: "object",
  properties: {
    wallet: { type: "string", description: "the managed wallet that claimed" },
    transactions: {
      type: "array",
      description: "one claim transaction per venue with something to claim",
      items: {
        type: "object",
        properties: {
          kind: {
            type: "string",
            enum: ["bonding_curve", "launchswap"],
            description: "which program's cashback it claimed",
          },
          claimable_lamports: { ...lamports, description: "what was claimable when it was built" },
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
