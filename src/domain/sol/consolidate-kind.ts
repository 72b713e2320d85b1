/** The consolidate execution kind (POST /v1/sol/consolidate/execute, spec 4.8): sweep SOL into one wallet. */
import { FIELD } from "../../core/json-schema.js";
import { defineKind } from "../execution/kind.js";
import { parseConsolidateRequest } from "./consolidate-request.js";
import { runConsolidate, type SolDeps } from "./consolidate.js";
import { consolidateResponse, feeReserveField } from "./kind-schemas.js";

const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

/** The consolidate kind. */
export const consolidateKind = defineKind({
  kind: "consolidate",
  path: "/v1/sol/consolidate/execute",
  scope: "transfer",
  budget: "transfer",
  tag: "sol",
  summary: "Sweep SOL from managed wallets into one destination (one transaction per source)",
  body: {
    properties: {
      destination_wallet: { description: "managed or external address", ...FIELD.address },
      source_wallets: {
        description:
          "1 to 50 unique managed wallets; default every active wallet of the key but the destination",
        type: "array",
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        items: FIELD.address,
      },
      fee_reserve_lamports: { ...feeReserveField, ...FIELD.bigInteger },
      confirm: { description: "default true", ...FIELD.bool },
    },
    required: ["destination_wallet"],
    optional: true,
  },
  response: consolidateResponse,
  examples: {
    sweep: {
      summary: "Sweep every other wallet of the key into one",
      value: { destination_wallet: WALLET },
    },
  },
  parse: (body) => parseConsolidateRequest(body),
  plan: (c, plan) => {
    plan.destinations = [c.destination];
    // No sources: every wallet the key may use (the custody store filters the list).
    plan.signers = c.sources ?? [];
    plan.amountLamports = null;
  },
  run: (deps: SolDeps, apiKeyId, request) => runConsolidate(deps, apiKeyId, request),
});
