/** SOL endpoints (spec 4.8 to 4.10): consolidate, send asset and split, each an execution. */
import type { FastifyInstance } from "fastify";
import { consolidateSol, type SolDeps } from "../domain/sol/consolidate.js";
import type { RequestBody } from "../core/request-fields.js";
import { splitSol } from "../domain/sol/split.js";
import { sendAsset } from "../domain/sol/transfer.js";
import { type DomainCall, executeRouteWithOptionalBody, type RouteDeps } from "./execute-route.js";
import {
  apiKeySecurity,
  optionalBody,
  confirmationProperties,
  confirmationRequired,
  executionErrors,
  lamportsSchema as lamports,
  solSchema as sol,
} from "./schemas.js";

// Request fields are documented, not typed: the domain parsers apply the spec's rules and exact texts.
const feeReserve = {
  description: "default 5000; the effective reserve adds the relay tip and the priority fee",
};
const confirm = { description: "default true" };

const consolidateBody = optionalBody({
  destination_wallet: { description: "managed or external address" },
  source_wallets: {
    description: "1 to 50 unique managed wallets; default every active wallet of the key but the destination",
  },
  fee_reserve_lamports: feeReserve,
  confirm,
});

const transferBody = optionalBody({
  destination_wallet: { description: "any address except the source" },
  source_wallet: { description: "managed wallet; the key's default wallet otherwise" },
  mint: { description: "omit or SOL for native SOL; otherwise a mint of SPL Token or Token-2022" },
  amount: { description: "SOL (up to 9 decimals) or token atomic units (positive integer)" },
  fee_reserve_lamports: feeReserve,
  confirm,
});

const splitBody = optionalBody({
  source_wallet: { description: "managed wallet; the key's default wallet otherwise" },
  total_percent: { description: "share of spendable balance, default 100, greater than 0, at most 100" },
  fee_reserve_lamports: feeReserve,
  destinations: {
    description: "1 to 5 entries {wallet, sol?} or {wallet, percent?}; neither = equal share",
  },
  confirm,
});

const consolidateResponse = {
  type: "object",
  properties: {
    destination_wallet: { type: "string", description: "where the SOL went" },
    fee_reserve_lamports: { ...lamports, description: "lamports left in each source for fees" },
    total_transfer_lamports: { ...lamports, description: "lamports moved, all sources together" },
    total_transfer_sol: { ...sol, description: "the same in SOL" },
    transactions: {
      type: "array",
      description: "one transaction per source with something to move",
      items: {
        type: "object",
        properties: {
          source_wallet: { type: "string", description: "the managed wallet swept" },
          source_balance_lamports: { ...lamports, description: "its balance before the sweep" },
          transfer_lamports: { ...lamports, description: "lamports it sent" },
          transfer_sol: { ...sol, description: "the same in SOL" },
          ...confirmationProperties,
        },
        required: [
          "source_wallet",
          "source_balance_lamports",
          "transfer_lamports",
          "transfer_sol",
          ...confirmationRequired,
        ],
        additionalProperties: false,
      },
    },
  },
  required: [
    "destination_wallet",
    "fee_reserve_lamports",
    "total_transfer_lamports",
    "total_transfer_sol",
    "transactions",
  ],
  additionalProperties: false,
} as const;

const transferResponse = {
  type: "object",
  properties: {
    source_wallet: { type: "string", description: "the managed wallet that sent" },
    destination_wallet: { type: "string", description: "the receiving address" },
    mint: { type: "string", description: "the token mint, or SOL for native SOL" },
    asset_type: { type: "string", enum: ["sol", "spl_token"], description: "native SOL or a token" },
    amount: { type: "string", description: "the amount as requested" },
    amount_units: { type: "integer", description: "the amount in atomic units (lamports or token units)" },
    decimals: { type: "integer", description: "decimals of the asset (9 for SOL)" },
    source_token_account: {
      type: ["string", "null"],
      description: "the sender's token account; null for SOL",
    },
    destination_token_account: {
      type: ["string", "null"],
      description: "the receiver's token account (created when missing); null for SOL",
    },
    fee_reserve_lamports: { ...lamports, description: "lamports kept in the source for fees" },
    ...confirmationProperties,
  },
  required: [
    "source_wallet",
    "destination_wallet",
    "mint",
    "asset_type",
    "amount",
    "amount_units",
    "decimals",
    "source_token_account",
    "destination_token_account",
    "fee_reserve_lamports",
    ...confirmationRequired,
  ],
  additionalProperties: false,
} as const;

const splitResponse = {
  type: "object",
  properties: {
    source_wallet: { type: "string", description: "the managed wallet that paid" },
    source_balance_lamports: { ...lamports, description: "its balance before the split" },
    fee_reserve_lamports: { ...lamports, description: "lamports kept in the source for fees" },
    spendable_lamports: { ...lamports, description: "balance minus the reserve, times total_percent" },
    transfer_total_lamports: { ...lamports, description: "lamports sent, all destinations together" },
    transfer_total_sol: { ...sol, description: "the same in SOL" },
    transfers: {
      type: "array",
      description: "one transfer per destination, in request order",
      items: {
        type: "object",
        properties: {
          wallet: { type: "string", description: "the destination" },
          lamports: { ...lamports, description: "lamports it received" },
          sol: { ...sol, description: "the same in SOL" },
          mode: {
            type: "string",
            enum: ["fixed", "percent", "equal"],
            description: "how its share was set: a sol amount, a percent, or an equal share",
          },
        },
        required: ["wallet", "lamports", "sol", "mode"],
        additionalProperties: false,
      },
    },
    ...confirmationProperties,
  },
  required: [
    "source_wallet",
    "source_balance_lamports",
    "fee_reserve_lamports",
    "spendable_lamports",
    "transfer_total_lamports",
    "transfer_total_sol",
    "transfers",
    ...confirmationRequired,
  ],
  additionalProperties: false,
} as const;

/** Registers the consolidate, send-asset and split routes (authenticated by the global auth hook). */
export function solRoutes(app: FastifyInstance, deps: RouteDeps<SolDeps>): void {
  const common = { tags: ["sol"], security: apiKeySecurity };
  const run = (call: DomainCall<SolDeps, RequestBody>) => executeRouteWithOptionalBody(deps, call);

  app.post(
    "/v1/sol/consolidate/execute",
    {
      config: { idempotent: true, scope: "transfer" },
      schema: {
        ...common,
        summary: "Sweep SOL from managed wallets into one destination (one transaction per source)",
        body: consolidateBody,
        response: { 200: consolidateResponse, ...executionErrors },
      },
    },
    run(consolidateSol),
  );

  app.post(
    "/v1/sol/transfer/execute",
    {
      config: { idempotent: true, scope: "transfer" },
      schema: {
        ...common,
        summary: "Send native SOL or a fungible token from a managed wallet to any address",
        body: transferBody,
        response: { 200: transferResponse, ...executionErrors },
      },
    },
    run(sendAsset),
  );

  app.post(
    "/v1/sol/split/execute",
    {
      config: { idempotent: true, scope: "transfer" },
      schema: {
        ...common,
        summary: "Distribute SOL from a managed wallet to up to five destinations in one transaction",
        body: splitBody,
        response: { 200: splitResponse, ...executionErrors },
      },
    },
    run(splitSol),
  );
}
