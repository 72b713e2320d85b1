/** The claim execution kind (POST /v1/cashback/claim/execute, spec 4.7): claim a managed wallet's cashback. */
import {
  FIELD,
  fieldIs,
  closedObject,
  confirmationProperties,
  lamportsSchema as lamports,
} from "../../core/json-schema.js";
import { VENUES } from "../../core/venues.js";
import { defineKind } from "../execution/kind.js";
import { addSigner } from "../keys/spend.js";
import { runClaim, type ClaimDeps } from "./claim.js";
import { parseClaimRequest } from "./rules.js";

const claimResponse = closedObject({
  wallet: { type: "string", description: "the managed wallet that claimed" },
  transactions: {
    type: "array",
    description: "one claim transaction per venue with something to claim",
    items: closedObject(
      {
        kind: {
          type: "string",
          enum: [...VENUES],
          description: "which program's cashback it claimed",
        },
        claimable_lamports: { ...lamports, description: "what was claimable when it was built" },
        ...confirmationProperties,
      },
      { optional: ["execution_id"] },
    ),
  },
});

/** The claim kind. */
export const claimKind = defineKind({
  kind: "claim",
  path: "/v1/cashback/claim/execute",
  scope: "trade",
  budget: "claim",
  tag: "cashback",
  summary: "Claim a managed wallet's cashback: one transaction per source with something to claim",
  body: {
    properties: {
      wallet: {
        description: "managed wallet public key; the key's default wallet otherwise",
        ...FIELD.address,
      },
      claim_bonding_curve: { description: "default true", ...FIELD.bool },
      claim_launchswap: { description: "default true", ...FIELD.bool },
      confirm: { description: "default true; waits for each claim's confirmation", ...FIELD.bool },
    },
    optional: true,
    // At least one venue to claim on.
    rules: { not: { allOf: [fieldIs("claim_bonding_curve", false), fieldIs("claim_launchswap", false)] } },
  },
  response: claimResponse,
  examples: { claim_all: { summary: "Claim both venues' cashback of the default wallet", value: {} } },
  parse: (body) => parseClaimRequest(body),
  plan: (c, plan) => addSigner(plan, c.wallet),
  run: (deps: ClaimDeps, apiKeyId, request) => runClaim(deps, apiKeyId, request),
});
