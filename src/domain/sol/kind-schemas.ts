/**
 * The answers of the SOL execution kinds (transfer, consolidate, split; spec 4.8 to 4.10) and what their fee
 * reserve is made of: the schemas their descriptors hand the OpenAPI document.
 */
import {
  closedObject,
  confirmationProperties,
  lamportsAndSol,
  lamportsSchema as lamports,
  ref,
} from "../../core/json-schema.js";

/** fee_reserve_lamports as every SOL kind's body documents it. */
export const feeReserveField = {
  description: "default 5000; the effective reserve adds the relay tip and the priority fee",
} as const;

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

export const consolidateResponse = closedObject(
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

export const transferResponse = closedObject(
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

export const splitResponse = closedObject(
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
