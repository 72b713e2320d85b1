/** POST /v1/laser/bundle (spec 4.5): an ordered, atomic bundle of 1 to 4 server-signed legs. */
import type { FastifyInstance } from "fastify";
import { executeBundle, type BundleDeps } from "../../domain/bundle/service.js";
import { executeRoute, type RouteDeps } from "../execute/execute-route.js";
import { executePost } from "../execute/execute-post.js";
import { executionIdSchema, closedObject, documentedFields } from "../openapi/schemas.js";

// Documented, not typed: the shape rules and their exact texts are the domain parser's.
const bundleBody = documentedFields({
  accounts: {
    description:
      "ordered legs, 1 to 4: a create leg (the create model of /v1/laser/create) followed by up to 3 SOL-denominated buy legs, or exactly one buy or sell leg of an existing token. Leg fields: type (create, buy, sell), wallet, amount, denominatedInSol, slippageBps (default 200, max 5000), pool",
  },
  mint: {
    description: "required for an existing-token bundle; must be omitted when the first leg is create",
  },
  bundleTip: { description: "SOL tip paid by the first leg's wallet, at least 0.000001" },
  confirm: {
    description:
      "default true: poll the bundle status for about 30 seconds. Not landed by then: 502 `bundle confirmation timed out` carrying this answer's fields beside the detail (confirmed: false; it may still land). A failure (502 `bundle failed`) carries `reason`",
  },
});

/** The spec's bundle result; a whitelist. */
const bundleResponseSchema = closedObject(
  {
    execution_id: executionIdSchema,
    bundle_id: { type: "string", description: "64 hex characters" },
    results: {
      type: "array",
      description: "one entry per leg, in bundle order",
      items: closedObject({
        index: { type: "integer", description: "the leg's position, from 0" },
        type: { type: "string", enum: ["create", "buy", "sell"], description: "the leg's type" },
        wallet: { type: "string", description: "the managed wallet that signed the leg" },
        signature: { type: "string", description: "the leg's transaction signature" },
      }),
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

/** Registers the bundle route. */
export function bundleRoutes(app: FastifyInstance, deps: RouteDeps<BundleDeps>): void {
  executePost(
    app,
    {
      path: "/v1/laser/bundle",
      scope: "create",
      tag: "bundles",
      summary: "Build, sign and submit an atomic bundle of 1 to 4 transactions from managed wallets",
      body: bundleBody,
      response: bundleResponseSchema,
    },
    executeRoute(deps, executeBundle),
  );
}
