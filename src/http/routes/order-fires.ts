/**
 * GET /v1/orders/{id}/fires: the records of a standing order's triggers (each followed trade a copy order saw,
 * each token a snipe fired on) with the decision taken, newest first in cursor pages.
 */
import type { FastifyInstance } from "fastify";
import { FIRE_DECISIONS } from "../../domain/orders/fires.js";
import { getOrderFires } from "../../domain/orders/service.js";
import { requireApiKey, requireCustodyKey } from "../hooks/auth.js";
import { storeOf } from "../hooks/custody.js";
import { apiKeySecurity, authErrors, closedObject, errorSchema, ref } from "../openapi/schemas.js";

const text = (description: string) => ({ type: "string", description }) as const;
const nullableText = (description: string) => ({ type: ["string", "null"], description }) as const;

/** One trigger of a standing order (the `OrderFire` component). */
export const orderFireComponent = closedObject(
  {
    at: text("when the trigger was claimed (ISO 8601)"),
    mint: text("the token"),
    side: { type: "string", enum: ["buy", "sell"], description: "the side of the trade (a snipe buys)" },
    signature: nullableText("copy: the followed trade's signature (null for a snipe)"),
    followed_wallet: nullableText("copy: the wallet that traded (null for a snipe and on older records)"),
    their_sol: nullableText("copy: the SOL of the followed trade"),
    their_tokens: nullableText("copy: the token atomic units of the followed trade"),
    our_amount: nullableText(
      "the amount of the trade we sent or would have sent: SOL for a buy (cut by the caps), token atomic units " +
        "or a percent of our position for a sell; null when skipped before sizing",
    ),
    decision: {
      type: "string",
      enum: [...FIRE_DECISIONS],
      description:
        "sent (an execution was recorded), skipped (reason: max_per_token, max_per_day, max_price_move, " +
        "too_small, no_position), refused (reason: the key's policy rule at fire time), failed (nothing sent: " +
        "the trade failed before its execution was recorded, e.g. the wallet cannot pay; reason: the rule it " +
        "names, else the error's detail), " +
        "dropped (reason process_ended: the process that claimed it ended before sending; nothing was sent), " +
        "claimed (its send not settled yet: settled by any process once older than ORDERS_LEASE_MS)",
    },
    reason: nullableText("why it was skipped, refused, failed or dropped"),
    execution_id: nullableText("the execution it produced"),
    execution_state: {
      type: ["string", "null"],
      enum: ["filled", "pending", "failed", null],
      description:
        "sent: the execution's outcome when the fire settled (null on snipe records kept before it was)",
    },
  },
  {
    $id: "OrderFire",
    description: "One trigger of a snipe or copy order and what the order decided",
  },
);

/** Registers GET /v1/orders/{id}/fires. */
export function orderFireRoutes(app: FastifyInstance): void {
  app.get(
    "/v1/orders/:id/fires",
    {
      config: { scope: "read" },
      schema: {
        tags: ["orders"],
        security: apiKeySecurity,
        summary: "A snipe or copy order's record per trigger (each followed trade, each token), newest first",
        description:
          "A wallet-bound key sees only its wallets' orders (404 otherwise). Other kinds fire once (400): their " +
          "executions are the order's execution_ids.",
        params: {
          type: "object",
          properties: { id: { type: "string", description: "the order id" } },
          required: ["id"],
        },
        querystring: {
          type: "object",
          properties: {
            limit: { type: "string", description: "page size, 1 to 500 (default 100)" },
            after: { type: "string", description: "cursor paging: next_cursor of the previous page" },
          },
        },
        response: {
          200: closedObject({
            fires: { type: "array", items: ref("OrderFire"), description: "newest first" },
            next_cursor: nullableText("pass as ?after= for the next page; null on the last page"),
          }),
          400: errorSchema,
          404: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) =>
      getOrderFires(
        { store: storeOf(req) },
        { accountId: requireApiKey(req).id, key: requireCustodyKey(req) },
        (req.params as { id: string }).id,
        req.query as Record<string, unknown>,
      ),
  );
}
