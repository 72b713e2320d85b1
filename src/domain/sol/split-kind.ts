/** The split execution kind (POST /v1/sol/split/execute, spec 4.10): up to five destinations, one transaction. */
import { FIELD, present } from "../../core/json-schema.js";
import { defineKind } from "../execution/kind.js";
import { addSigner } from "../keys/spend.js";
import type { SolDeps } from "./consolidate.js";
import { feeReserveField, splitResponse } from "./kind-schemas.js";
import { parseSplitRequest } from "./split-request.js";
import { runSplit } from "./split.js";

const OTHER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const THIRD = "5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1";

/** The split kind. */
export const splitKind = defineKind({
  kind: "split",
  path: "/v1/sol/split/execute",
  scope: "transfer",
  budget: "transfer",
  tag: "sol",
  summary: "Distribute SOL from a managed wallet to up to five destinations in one transaction",
  body: {
    properties: {
      source_wallet: { description: "managed wallet; the key's default wallet otherwise", ...FIELD.address },
      total_percent: {
        description:
          "share of spendable balance in percent, default 100, greater than 0, at most 100, up to 2 decimals",
        ...FIELD.percent,
      },
      fee_reserve_lamports: { ...feeReserveField, ...FIELD.bigInteger },
      destinations: {
        description: "1 to 5 entries {wallet, sol?} or {wallet, percent?}; neither = equal share",
        type: "array",
        minItems: 1,
        maxItems: 5,
        items: {
          type: "object",
          properties: { wallet: FIELD.address, sol: FIELD.sol, percent: FIELD.percent },
          required: ["wallet"],
          // sol or percent, not both (neither: an equal share).
          not: present("sol", "percent"),
        },
      },
      confirm: { description: "default true", ...FIELD.bool },
    },
    required: ["destinations"],
    items: { destinations: ["wallet", "sol", "percent"] },
    optional: true,
  },
  response: splitResponse,
  examples: {
    split: {
      summary: "Send 0.1 SOL to one wallet and split the rest equally with another",
      value: { destinations: [{ wallet: OTHER, sol: "0.1" }, { wallet: THIRD }] },
    },
  },
  parse: (body) => parseSplitRequest(body),
  plan: (r, plan) => {
    plan.destinations = r.destinations.map((d) => d.wallet);
    addSigner(plan, r.source);
    plan.amountLamports = null;
  },
  run: (deps: SolDeps, apiKeyId, request) => runSplit(deps, apiKeyId, request),
});
