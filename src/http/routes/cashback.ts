/**
 * POST /v1/cashback/check (spec 4.6): read-only, so not an execution kind (no spend, no record, no
 * Idempotency-Key); the claim is one (domain/cashback/claim-kind.ts).
 */
import type { FastifyInstance } from "fastify";
import type { ClaimDeps } from "../../domain/cashback/claim.js";
import { checkCashback } from "../../domain/cashback/check.js";
import { executeRouteWithOptionalBody, type RouteDeps } from "../execute/execute-route.js";
import { executePost } from "../execute/execute-post.js";
import { optionalBody, lamportsAndSol, closedObject } from "../openapi/schemas.js";

// Fields are documented, not typed: the domain parser applies the spec's rules and exact texts (a schema type
// would let Ajv coerce a single string into `wallets`, for instance).
const checkBody = optionalBody({
  wallet: { description: "one wallet address (any address, managed or not)" },
  wallets: { description: "1 to 100 wallet addresses; duplicates removed; not together with wallet" },
});

const cashbackEntry = closedObject(
  {
    wallet: { type: "string", description: "the wallet checked" },
    ...lamportsAndSol(
      "launch_bonding_lamports",
      "launch_bonding_sol",
      "claimable on the bonding curve program",
    ),
    ...lamportsAndSol(
      "launchswap_wsol_lamports",
      "launchswap_wsol",
      "claimable on launchswap, as wrapped SOL",
    ),
    ...lamportsAndSol("total_claimable_lamports", "total_claimable_sol", "both together"),
    accounts: closedObject(
      {
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
      { description: "the accounts read (addresses, base58)" },
    ),
  },
  {
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
  },
);

const checkResponse = closedObject({
  wallets: { type: "array", items: cashbackEntry, description: "one entry per wallet, in request order" },
  totals: closedObject(
    {
      ...lamportsAndSol(
        "launch_bonding_lamports",
        "launch_bonding_sol",
        "bonding curve cashback, all wallets",
      ),
      ...lamportsAndSol("launchswap_wsol_lamports", "launchswap_wsol", "launchswap cashback, all wallets"),
      ...lamportsAndSol("combined_lamports", "combined_sol", "both venues, all wallets"),
    },
    {
      description: "the sums over every wallet",
      required: [
        "launch_bonding_lamports",
        "launch_bonding_sol",
        "launchswap_wsol_lamports",
        "launchswap_wsol",
        "combined_lamports",
        "combined_sol",
      ],
    },
  ),
  rpc_slots: {
    type: "array",
    items: { type: "integer" },
    description: "the slots the reads were answered at",
  },
});

/** Registers the cashback check route (authenticated by the global auth hook). */
export function cashbackRoutes(app: FastifyInstance, deps: RouteDeps<ClaimDeps>): void {
  executePost(
    app,
    {
      path: "/v1/cashback/check",
      scope: "read",
      idempotent: false,
      tag: "cashback",
      summary: "Read claimable cashback of wallets (read-only; any address)",
      body: checkBody,
      response: checkResponse,
    },
    executeRouteWithOptionalBody(deps, checkCashback),
  );
}
