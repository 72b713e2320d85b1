/**
 * The bundle execution kind (POST /v1/laser/bundle, spec 4.5): an ordered, atomic bundle of 1 to 4
 * server-signed legs.
 */
import { BUNDLE_TIP_FIELDS } from "../../core/fee-fields.js";
import {
  FIELD,
  PATTERN,
  fieldIs,
  implies,
  closedObject,
  executionIdSchema,
  present,
} from "../../core/json-schema.js";
import { BONDING_CURVE, LAUNCHSWAP } from "../../core/venues.js";
import { CREATE_ALIASES, CREATE_FIELD_TYPES } from "../create/kind.js";
import { defineKind } from "../execution/kind.js";
import { bundleLegResultSchema } from "../outside/leg-schemas.js";
import { addSigner, CREATE_RENT_BOUND_LAMPORTS, type SpendPlan } from "../keys/spend.js";
import { runBundle, type BundleDeps } from "./service.js";
import { parseBundleRequest, type BundleRequest } from "./shape.js";

const OTHER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";

/** A leg: `type`, the create model on a create leg, the trade fields on a buy or sell leg. */
const bundleLeg = {
  type: "object",
  properties: {
    type: { type: "string", enum: ["create", "buy", "sell"] },
    ...CREATE_FIELD_TYPES,
    amount: FIELD.sol,
    denominatedInSol: FIELD.bool,
    slippageBps: FIELD.slippageBps,
    pool: FIELD.address,
  },
  required: ["type"],
  allOf: [
    // A create leg carries the create model's required fields.
    implies(fieldIs("type", "create"), { required: ["name", "symbol", "uri"] }),
    // A buy or sell leg has an amount and a slippage in basis points only (slippage is the create model's).
    implies({ not: fieldIs("type", "create") }, { required: ["amount"], not: present("slippage") }),
    // A create leg's slippage bounds its developer buy: only with initial_buy.
    implies(present("slippage"), { required: ["initial_buy"] }),
    // A sell leg sells atomic units, and says so (denominatedInSol defaults to true); a buy leg buys SOL, or
    // atomic units with denominatedInSol: false.
    implies(fieldIs("type", "sell"), {
      allOf: [{ properties: { amount: FIELD.units } }, fieldIs("denominatedInSol", false)],
    }),
    implies(
      { allOf: [fieldIs("type", "buy"), fieldIs("denominatedInSol", false)] },
      { properties: { amount: FIELD.units } },
    ),
  ],
};

/** The spec's bundle result; a whitelist. */
const bundleResponseSchema = closedObject(
  {
    execution_id: executionIdSchema,
    bundle_id: { type: "string", description: "64 hex characters" },
    results: {
      type: "array",
      description: "one entry per leg, in bundle order",
      items: bundleLegResultSchema,
    },
    mint: { type: "string", description: "the token traded (or created by the first leg)" },
    confirmed: {
      type: "boolean",
      description: "true when the bundle landed within the wait; false: sent, outcome not known",
    },
    confirmation_status: {
      type: ["string", "null"],
      enum: ["confirmed", "finalized", null],
      description: "the bundle's status as last seen; null when not seen (or confirm: false)",
    },
  },
  { required: ["bundle_id", "results", "mint", "confirmed", "confirmation_status"] },
);

/**
 * What a bundle may spend besides its signers: tip, each leg's SOL and creation rent, venues and mint (shared
 * with the outside bundle build, whose wallets are not managed ones).
 */
export function planBundleSpend(r: BundleRequest, plan: SpendPlan): void {
  plan.tipLamports = r.tipLamports;
  let total = 0n;
  let bounded = true;
  for (const leg of r.legs) {
    if (leg.type === "create") {
      total += leg.create.initialBuy?.lamports ?? 0n;
      plan.rentLamports += CREATE_RENT_BOUND_LAMPORTS;
    } else if (leg.type === "buy") {
      if (leg.denominatedInSol) total += leg.amount;
      else bounded = false;
    }
    if (leg.type !== "create" && leg.pool !== undefined) plan.venues.push(LAUNCHSWAP);
  }
  if (r.shape === "create-led") plan.venues.push(BONDING_CURVE);
  plan.venues = [...new Set(plan.venues)];
  if (r.shape === "existing-token") plan.mints = [r.mint];
  plan.amountLamports = bounded ? total : null;
}

/** The bundle kind. */
export const bundleKind = defineKind({
  kind: "bundle",
  path: "/v1/laser/bundle",
  scope: "create",
  budget: "create",
  tag: "bundles",
  summary: "Build, sign and submit an atomic bundle of 1 to 4 transactions from managed wallets",
  body: {
    properties: {
      accounts: {
        description:
          "ordered legs, 1 to 4: a create leg (the create model of /v1/laser/create) followed by up to 3 SOL-denominated buy legs, or exactly one buy or sell leg of an existing token. Leg fields: type (create, buy, sell), wallet, amount, denominatedInSol, slippageBps (default 200, max 5000), pool",
        type: "array",
        minItems: 1,
        maxItems: 4,
        items: bundleLeg,
      },
      mint: {
        description: "required for an existing-token bundle; must be omitted when the first leg is create",
        ...FIELD.address,
      },
      bundleTip: {
        description:
          "SOL tip paid by the first leg's wallet, at least 0.000001, up to 9 decimals (alias tip)",
        oneOf: [
          { type: "string", pattern: PATTERN.tipSol },
          { type: "number", minimum: 0.000001, maximum: 1e10, multipleOf: 1e-9 },
        ],
      },
      confirm: {
        description:
          "default true: poll the bundle status for about 30 seconds. Not landed by then: 502 `bundle confirmation timed out` carrying this answer's fields beside the detail (confirmed: false; it may still land). A failure (502 `bundle failed`) carries `reason`",
        ...FIELD.bool,
      },
    },
    required: ["accounts", "bundleTip"],
    rules: {
      allOf: [
        // tip is bundleTip's alias: one of them.
        { not: present("bundleTip", "tip") },
        // With mint: an existing-token bundle, exactly one buy or sell leg (a create leg comes without mint). That
        // a bundle without mint starts with its create leg is a rule by position, which OpenAPI 3.0 cannot state.
        implies(present("mint"), {
          properties: { accounts: { maxItems: 1, items: { not: fieldIs("type", "create") } } },
        }),
      ],
    },
    aliases: BUNDLE_TIP_FIELDS.filter((f) => f !== "bundleTip"),
    items: {
      accounts: [
        ...Object.keys(bundleLeg.properties),
        ...CREATE_ALIASES,
        "denominated_in_sol",
        "slippage_bps",
      ],
    },
  },
  response: bundleResponseSchema,
  examples: {
    create_and_buy: {
      summary: "Create a token and buy it from a second wallet in the same bundle",
      value: {
        accounts: [
          { type: "create", name: "Example", symbol: "EXM", uri: "https://example.com/metadata.json" },
          { type: "buy", wallet: OTHER, amount: "0.2", slippageBps: 500 },
        ],
        bundleTip: "0.0001",
      },
    },
  },
  parse: (body, limits) => parseBundleRequest(body, limits),
  plan: (r, plan) => {
    for (const leg of r.legs) addSigner(plan, leg.wallet);
    planBundleSpend(r, plan);
  },
  ownTip: true,
  run: (deps: BundleDeps, apiKeyId, request) => runBundle(deps, apiKeyId, request),
});
