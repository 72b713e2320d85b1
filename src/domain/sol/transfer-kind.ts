/** The transfer execution kind (POST /v1/sol/transfer/execute, spec 4.9): send native SOL or a token. */
import { FIELD, implies, present } from "../../core/json-schema.js";
import { defineKind } from "../execution/kind.js";
import { addSigner, TOKEN_ACCOUNT_RENT_LAMPORTS } from "../keys/spend.js";
import { feeReserveField, transferResponse } from "./kind-schemas.js";
import { parseTransferRequest } from "./transfer-request.js";
import { runTransfer } from "./transfer.js";
import type { SolDeps } from "./consolidate.js";

const MINT = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const OTHER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";

/** The transfer kind. */
export const transferKind = defineKind({
  kind: "transfer",
  path: "/v1/sol/transfer/execute",
  scope: "transfer",
  budget: "transfer",
  tag: "sol",
  summary: "Send native SOL or a fungible token from a managed wallet to any address",
  body: {
    properties: {
      destination_wallet: { description: "any address except the source", ...FIELD.address },
      source_wallet: { description: "managed wallet; the key's default wallet otherwise", ...FIELD.address },
      mint: {
        description: "omit or SOL for native SOL; otherwise a mint of SPL Token or Token-2022",
        ...FIELD.mintOrSol,
      },
      amount: {
        description:
          "SOL (up to 9 decimals) or, with a token mint, token atomic units (positive integer); required unless amount_tokens",
        ...FIELD.sol,
      },
      amount_tokens: {
        description:
          'tokens only: whole tokens as decimal text (e.g. "1.5"), converted with the mint\'s decimals; not with amount',
        ...FIELD.wholeTokens,
      },
      fee_reserve_lamports: { ...feeReserveField, ...FIELD.bigInteger },
      confirm: { description: "default true", ...FIELD.bool },
    },
    required: ["destination_wallet"],
    rules: {
      // amount or amount_tokens, not both; amount_tokens only with a token mint, whose amount is atomic units.
      oneOf: [{ required: ["amount"] }, { required: ["amount_tokens"] }],
      allOf: [
        implies(present("amount_tokens"), { required: ["mint"], properties: { mint: FIELD.address } }),
        implies(
          { required: ["mint"], properties: { mint: FIELD.address } },
          { properties: { amount: FIELD.units } },
        ),
      ],
    },
    optional: true,
  },
  response: transferResponse,
  examples: {
    send_sol: { summary: "Send 0.25 SOL", value: { destination_wallet: OTHER, amount: "0.25" } },
    send_token: {
      summary: "Send 1,000,000 atomic units of a token from a named wallet",
      value: { destination_wallet: OTHER, source_wallet: WALLET, mint: MINT, amount: "1000000" },
    },
  },
  parse: (body) => parseTransferRequest(body),
  plan: (t, plan) => {
    plan.destinations = [t.destination];
    addSigner(plan, t.source);
    if (t.asset.kind === "sol") plan.amountLamports = t.asset.lamports;
    else {
      plan.mints = [t.asset.mint];
      plan.rentLamports = TOKEN_ACCOUNT_RENT_LAMPORTS;
    }
  },
  run: (deps: SolDeps, apiKeyId, request) => runTransfer(deps, apiKeyId, request),
});
