/** SOL endpoints (spec 4.8 to 4.10): consolidate, send asset and split, each an execution. */
import type { FastifyInstance } from "fastify";
import { consolidateSol, type SolDeps } from "../../domain/sol/consolidate.js";
import type { RequestBody } from "../../core/request-fields.js";
import { splitSol } from "../../domain/sol/split.js";
import { sendAsset } from "../../domain/sol/transfer.js";
import { type DomainCall, executeRouteWithOptionalBody, type RouteDeps } from "../execute/execute-route.js";
import { executePost } from "../execute/execute-post.js";
import {
  optionalBody,
  confirmationProperties,
  lamportsSchema as lamports,
  lamportsAndSol,
  closedObject,
  ref,
} from "../openapi/schemas.js";

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
  amount: {
    description:
      "SOL (up to 9 decimals) or token atomic units (positive integer); required unless amount_tokens",
  },
  amount_tokens: {
    description:
      'tokens only: whole tokens as decimal text (e.g. "1.5"), converted with the mint\'s decimals; not with amount',
  },
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

const digits = (description: string) =>
  ({
    type: "string",
    pattern: "^[0-9]+$",
    description: `${description}, lamports as a decimal string`,
  }) as const;

/** What fee_reserve_lamports is made of (issue 30); optional so a stored idempotent answer still serializes. */
export const feeReserveBreakdownComponent = closedObject(
  {
    requested_lamports: digits("fee_reserve_lamports as requested (default 5000)"),
    rent_exempt_minimum_lamports: digits("the rent-exempt minimum of a system account (890,880)"),
    fee_reserve_lamports: digits(
      "the fee reserve term: the requested value, raised to the rent-exempt minimum when below it (the runtime refuses a transaction that leaves its payer between 0 and that minimum)",
    ),
    relay_tip_lamports: digits("the relay tip the transaction pays"),
    signature_fee_lamports: digits("5000 per signature"),
    priority_fee_lamports: digits("compute-unit price × limit / 10^6, rounded up"),
    priority_fee_reserve_lamports: digits("the priority-fee reserve term: signature fee + priority fee"),
    total_lamports: digits("fee reserve + relay tip + priority-fee reserve = fee_reserve_lamports"),
  },
  {
    $id: "FeeReserveBreakdown",
    description:
      "what fee_reserve_lamports is made of: fee reserve + relay tip + priority-fee reserve (a low-balance 400 carries it too, with `reason`)",
  },
);
const feeReserveBreakdown = ref("FeeReserveBreakdown");

const consolidateResponse = closedObject(
  {
    destination_wallet: { type: "string", description: "where the SOL went" },
    fee_reserve_lamports: { ...lamports, description: "lamports left in each source for fees" },
    fee_reserve_breakdown: feeReserveBreakdown,
    ...lamportsAndSol(
      "total_transfer_lamports",
      "total_transfer_sol",
      "lamports moved, all sources together",
    ),
    transactions: {
      type: "array",
      description: "one transaction per source with something to move",
      items: closedObject(
        {
          source_wallet: { type: "string", description: "the managed wallet swept" },
          source_balance_lamports: { ...lamports, description: "its balance before the sweep" },
          ...lamportsAndSol("transfer_lamports", "transfer_sol", "lamports it sent"),
          ...confirmationProperties,
        },
        { optional: ["execution_id"] },
      ),
    },
  },
  {
    required: [
      "destination_wallet",
      "fee_reserve_lamports",
      "total_transfer_lamports",
      "total_transfer_sol",
      "transactions",
    ],
  },
);

const transferResponse = closedObject(
  {
    source_wallet: { type: "string", description: "the managed wallet that sent" },
    destination_wallet: { type: "string", description: "the receiving address" },
    mint: { type: "string", description: "the token mint, or SOL for native SOL" },
    asset_type: { type: "string", enum: ["sol", "spl_token"], description: "native SOL or a token" },
    amount: { type: "string", description: "the amount as requested" },
    amount_units: { type: "integer", description: "the amount in atomic units (lamports or token units)" },
    amount_units_text: {
      type: "string",
      description: "amount_units as decimal text (exact above 2^53; every other amount is text)",
    },
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
    fee_reserve_breakdown: feeReserveBreakdown,
    ...confirmationProperties,
  },
  { optional: ["execution_id", "fee_reserve_breakdown"] },
);

const splitResponse = closedObject(
  {
    source_wallet: { type: "string", description: "the managed wallet that paid" },
    source_balance_lamports: { ...lamports, description: "its balance before the split" },
    fee_reserve_lamports: { ...lamports, description: "lamports kept in the source for fees" },
    fee_reserve_breakdown: feeReserveBreakdown,
    spendable_lamports: { ...lamports, description: "balance minus the reserve, times total_percent" },
    ...lamportsAndSol(
      "transfer_total_lamports",
      "transfer_total_sol",
      "lamports sent, all destinations together",
    ),
    transfers: {
      type: "array",
      description: "one transfer per destination, in request order",
      items: closedObject({
        wallet: { type: "string", description: "the destination" },
        ...lamportsAndSol("lamports", "sol", "lamports it received"),
        mode: {
          type: "string",
          enum: ["fixed", "percent", "equal"],
          description: "how its share was set: a sol amount, a percent, or an equal share",
        },
      }),
    },
    ...confirmationProperties,
  },
  { optional: ["execution_id", "fee_reserve_breakdown"] },
);

/** Registers the consolidate, send-asset and split routes (authenticated by the global auth hook). */
export function solRoutes(app: FastifyInstance, deps: RouteDeps<SolDeps>): void {
  const run = (call: DomainCall<SolDeps, RequestBody>) => executeRouteWithOptionalBody(deps, call);

  executePost(
    app,
    {
      path: "/v1/sol/consolidate/execute",
      scope: "transfer",
      tag: "sol",
      summary: "Sweep SOL from managed wallets into one destination (one transaction per source)",
      body: consolidateBody,
      response: consolidateResponse,
    },
    run(consolidateSol),
  );

  executePost(
    app,
    {
      path: "/v1/sol/transfer/execute",
      scope: "transfer",
      tag: "sol",
      summary: "Send native SOL or a fungible token from a managed wallet to any address",
      body: transferBody,
      response: transferResponse,
    },
    run(sendAsset),
  );

  executePost(
    app,
    {
      path: "/v1/sol/split/execute",
      scope: "transfer",
      tag: "sol",
      summary: "Distribute SOL from a managed wallet to up to five destinations in one transaction",
      body: splitBody,
      response: splitResponse,
    },
    run(splitSol),
  );
}
