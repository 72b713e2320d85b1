/**
 * The outside-wallet create and bundle builds (issue 32): POST /v1/laser/create/build and
 * POST /v1/laser/bundle/build, beside the managed POST /v1/laser/create and /v1/laser/bundle whose bodies,
 * rules and planning they reuse. Nothing is sent or recorded; POST /v1/transactions/send takes them back signed.
 */
import { closedObject } from "../../core/json-schema.js";
import { BONDING_CURVE } from "../../core/venues.js";
import { bundleKind, planBundleSpend } from "../bundle/kind.js";
import { createKind } from "../create/kind.js";
import { defineKind, type FieldSchema } from "../execution/kind.js";
import { CREATE_RENT_BOUND_LAMPORTS, type SpendPlan } from "../keys/spend.js";
import { FIELD } from "../../core/json-schema.js";
import {
  parseBundleBuildRequest,
  runBundleBuild,
  type BundleBuildDeps,
  type BundleBuildIntent,
} from "./build-bundle.js";
import {
  parseCreateBuildRequest,
  runCreateBuild,
  type CreateBuildDeps,
  type CreateBuildIntent,
} from "./build-create.js";
import { builtInitialBuySchema } from "./leg-schemas.js";

const SIGNER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const BUYER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const text = (description: string): object => ({ type: "string", description });
const publicKey = (description: string): FieldSchema => ({ description, ...FIELD.address });
/** The managed body's fields less those that choose the managed wallet or how it is sent. */
const without = (props: Record<string, FieldSchema>, names: readonly string[]): Record<string, FieldSchema> =>
  Object.fromEntries(Object.entries(props).filter(([n]) => !names.includes(n)));

const compute = {
  compute_unit_limit: { type: "integer", description: "the compute-unit limit written" },
  compute_unit_price_micro_lamports: text("the compute-unit price written"),
  tip_lamports: text("the relay tip the transaction pays (0 without one)"),
  last_valid_block_height: { type: "integer", description: "send before this block height" },
};

/** What a create build may spend: its dev buy, the creation rent, on the curve (no managed signer). */
export function planCreateBuildSpend(c: CreateBuildIntent, plan: SpendPlan): void {
  plan.amountLamports = c.create.initialBuy?.lamports ?? 0n;
  plan.rentLamports = CREATE_RENT_BOUND_LAMPORTS;
  plan.venues.push(BONDING_CURVE);
}

/** The create build kind. */
export const createBuildKind = defineKind({
  kind: "create_build",
  path: "/v1/laser/create/build",
  scope: "build",
  budget: "create",
  tag: "outside wallets",
  summary:
    "Build an unsigned token creation for a wallet the service does not hold (mint signed by the service)",
  body: {
    properties: {
      public_key: publicKey("the outside wallet: creator, payer and only signer left (alias publicKey)"),
      // The create's own fields, as POST /v1/laser/create states them (one description).
      ...without(createKind.body.properties, ["wallet", "confirm"]),
    },
    required: ["public_key", ...(createKind.body.required ?? [])],
    ...(createKind.body.rules !== undefined ? { rules: createKind.body.rules } : {}),
    aliases: ["publicKey", ...(createKind.body.aliases ?? [])],
  },
  response: closedObject(
    {
      transaction: text(
        "the v0 transaction, base64, signed by the new mint only: sign it as fee payer, then POST /v1/transactions/send",
      ),
      public_key: text("the outside wallet: creator, fee payer and the signer left"),
      mint: text("the new token's mint (server-generated; its secret is wiped once it signed)"),
      creator: text("the outside wallet"),
      metadata_uri: text("the metadata URI written on chain"),
      initial_buy: builtInitialBuySchema,
      ...compute,
    },
    { optional: ["initial_buy"] },
  ),
  examples: {
    create: {
      summary: "Build a token creation with a 0.5 SOL developer buy for an outside wallet",
      value: {
        public_key: SIGNER,
        name: "Example",
        symbol: "EXM",
        uri: "https://example.com/metadata.json",
        initial_buy: "0.5",
      },
    },
  },
  records: null,
  parse: (body) => parseCreateBuildRequest(body),
  plan: planCreateBuildSpend,
  run: (deps: CreateBuildDeps, apiKeyId, intent) => runCreateBuild(deps, apiKeyId, intent),
});

const bundleAccounts = bundleKind.body.properties.accounts!;

/** The bundle build kind. */
export const bundleBuildKind = defineKind({
  kind: "bundle_build",
  path: "/v1/laser/bundle/build",
  scope: "build",
  budget: "create",
  tag: "outside wallets",
  summary: "Build one unsigned transaction per bundle leg for wallets the service does not hold",
  body: {
    properties: {
      ...without(bundleKind.body.properties, ["confirm"]),
      accounts: {
        ...bundleAccounts,
        description: `${String(bundleAccounts.description)}. Here each leg's wallet is the outside wallet that signs it (public_key when omitted)`,
      },
      public_key: publicKey("the outside wallet of every leg that names none (alias publicKey)"),
    },
    required: bundleKind.body.required ?? [],
    rules: {
      allOf: [
        ...((bundleKind.body.rules?.allOf as readonly object[] | undefined) ?? []),
        // Every leg has its outside wallet: its own, or public_key for all.
        {
          anyOf: [
            { required: ["public_key"] },
            {
              properties: {
                accounts: { items: { properties: { wallet: FIELD.address }, required: ["wallet"] } },
              },
            },
          ],
        },
      ],
    },
    aliases: ["publicKey", ...(bundleKind.body.aliases ?? [])],
    ...(bundleKind.body.items !== undefined ? { items: bundleKind.body.items } : {}),
  },
  response: closedObject({
    mint: text("the token created by the first leg, or the top-level mint"),
    bundle_tip_lamports: text("the bundle tip, paid by the first leg"),
    last_valid_block_height: { type: "integer", description: "send every leg before this block height" },
    legs: {
      type: "array",
      description: "one unsigned transaction per leg, in bundle order",
      items: closedObject(
        {
          index: { type: "integer", description: "the leg's position, from 0" },
          type: { type: "string", enum: ["create", "buy", "sell"], description: "the leg's type" },
          wallet: text("the outside wallet that signs the leg (its fee payer)"),
          transaction: text("the leg's v0 transaction, base64 (a create leg is signed by its mint already)"),
          expected_output: {
            type: ["string", "null"],
            description: "the leg's slippage bound; null for a create without a dev buy",
          },
          tip_lamports: text("the tip this leg pays (the first leg only)"),
        },
        {},
      ),
    },
  }),
  examples: {
    create_and_buy: {
      summary: "A create by one outside wallet and a buy by another, as one bundle",
      value: {
        public_key: SIGNER,
        accounts: [
          { type: "create", name: "Example", symbol: "EXM", uri: "https://example.com/metadata.json" },
          { type: "buy", wallet: BUYER, amount: "0.2", slippageBps: 500 },
        ],
        bundleTip: "0.0001",
      },
    },
  },
  records: null,
  parse: (body, limits) => parseBundleBuildRequest(body, limits),
  // The managed bundle's plan without its signers: the wallets are outside ones (no wallet binding applies).
  plan: (b: BundleBuildIntent, plan: SpendPlan) => planBundleSpend(b.bundle, plan),
  ownTip: true,
  run: (deps: BundleBuildDeps, apiKeyId, intent) => runBundleBuild(deps, apiKeyId, intent),
});
