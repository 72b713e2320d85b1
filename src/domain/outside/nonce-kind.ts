/**
 * POST /v1/nonce-accounts/build (issue 32): the outside wallet's durable nonce account, the one its raced builds
 * advance: as it is, or the unsigned transaction creating it (the wallet signs and sends it itself).
 */
import { FIELD, closedObject } from "../../core/json-schema.js";
import { defineKind } from "../execution/kind.js";
import type { SpendPlan } from "../keys/spend.js";
import {
  parseNonceAccountRequest,
  runNonceAccountBuild,
  type NonceAccountDeps,
  type NonceAccountIntent,
} from "./nonce-account.js";

const SIGNER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
/** The rent-exempt minimum of a nonce account (80 bytes) on mainnet and the localnet. */
const NONCE_RENT_LAMPORTS = 1_447_680n;

/** The creation spends the wallet's rent (returned on withdraw) and no tip; the service holds nothing of it. */
function planNonceAccount(_intent: NonceAccountIntent, plan: SpendPlan): void {
  plan.tipLamports = 0n;
  plan.rentLamports = NONCE_RENT_LAMPORTS;
}

/** The nonce-account build kind: nothing is signed, sent or recorded. */
export const nonceAccountKind = defineKind({
  kind: "nonce_account",
  path: "/v1/nonce-accounts/build",
  scope: "build",
  budget: "transfer",
  tag: "outside wallets",
  summary:
    "The outside wallet's durable nonce account for raced sends, or the unsigned transaction creating it",
  body: {
    properties: {
      public_key: { description: "the outside wallet (alias publicKey)", ...FIELD.address },
    },
    required: ["public_key"],
    aliases: ["publicKey"],
  },
  response: closedObject(
    {
      public_key: { type: "string", description: "the outside wallet: payer, signer and nonce authority" },
      nonce_account: {
        type: "string",
        description: "its nonce account, derived from the wallet (create with seed), known before it exists",
      },
      exists: { type: "boolean", description: "it exists already (nothing to sign)" },
      transaction: {
        type: ["string", "null"],
        description:
          "the unsigned v0 transaction creating and initializing it, base64: sign as fee payer and send it (any RPC); null when it exists",
      },
      rent_lamports: {
        type: "string",
        description: "its rent-exempt balance, paid by the wallet, returned when the wallet withdraws it",
      },
      nonce_value: { type: ["string", "null"], description: "its current value; null until it exists" },
      authority: { type: "string", description: "who advances it: the wallet" },
      last_valid_block_height: {
        type: ["integer", "null"],
        description: "send the creation before this block height; null when it exists",
      },
    },
    {
      required: [
        "public_key",
        "nonce_account",
        "exists",
        "transaction",
        "rent_lamports",
        "nonce_value",
        "authority",
        "last_valid_block_height",
      ],
    },
  ),
  examples: {
    nonce: { summary: "The outside wallet's nonce account", value: { public_key: SIGNER } },
  },
  records: null,
  parse: (body) => parseNonceAccountRequest(body),
  plan: planNonceAccount,
  run: (deps: NonceAccountDeps, apiKeyId, intent) => runNonceAccountBuild(deps, apiKeyId, intent),
});
