/**
 * POST /v1/orders, GET /v1/orders, GET /v1/orders/{id}, DELETE /v1/orders/{id}: orders the service runs
 * itself (limit, take-profit, stop-loss, trailing stop, bracket), evaluated on every state change of their mint.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../../core/errors.js";
import { requireChain } from "../../domain/execution/gate.js";
import type { OrderEngine } from "../../domain/orders/engine.js";
import {
  cancelOrder,
  createOrder,
  getOrder,
  listOrders,
  type OrderCaller,
  type OrderServiceDeps,
} from "../../domain/orders/service.js";
import { ORDER_RULES } from "../../domain/orders/texts.js";
import type { VenueState } from "../../domain/watch/venue-state.js";
import { requireApiKey, requireCustodyKey } from "../hooks/auth.js";
import { storeOf } from "../hooks/custody.js";
import { apiKeySecurity, closedObject, executionErrors, ref } from "../openapi/schemas.js";

/** What the order routes need; `engine` and `venues` are absent without a chain or a warm state (503 / 400). */
export type OrderRouteDeps = Omit<OrderServiceDeps, "store" | "engine" | "venues" | "chain"> & {
  chain?: OrderServiceDeps["chain"];
  venues?: VenueState;
  engine?: OrderEngine;
};

const text = (description: string) => ({ type: "string", description }) as const;
const nullableText = (description: string) => ({ type: ["string", "null"], description }) as const;
const anyJson = (description: string) => ({ description }) as const;

/** One level of an order (the `OrderTrigger` component). */
export const orderTriggerComponent = closedObject(
  {
    fires_when: {
      type: "string",
      enum: ["at_or_above", "at_or_below"],
      description: "the side of the level that fires",
    },
    price: text("the level: SOL per whole token of the order's size, fees included"),
    sol_out: text("the level: SOL the order's amount gets, fees included"),
    asked: anyJson("the level as the request gave it (price, percent or sol_out)"),
  },
  {
    $id: "OrderTrigger",
    description: "A level of an order and the side of it that fires",
    required: ["fires_when", "asked"],
  },
);

const specProperties = {
  kind: {
    type: "string",
    enum: ["limit", "take_profit", "stop_loss", "trailing_stop", "bracket", "on_migration", "snipe", "copy"],
    description: "the order kind",
  },
  side: {
    type: ["string", "null"],
    enum: ["buy", "sell", null],
    description:
      "what the order does when it fires (null for a copy, which mirrors each followed trade's side)",
  },
  mint: nullableText("the token mint (null for a snipe or a copy, which follow new tokens or wallets)"),
  amount: nullableText(
    "SOL (buys; a snipe: SOL per matching token; a copy: SOL per copied buy, null with a ratio), token atomic units or a percentage of the position at fire time (sells)",
  ),
  copy: anyJson(
    "copy: follow, amount, ratio, sell_sizing, buys_only, sells_only, max_per_token, max_per_day, delay_ms, max_price_move",
  ),
  rule: anyJson(
    "snipe: creators, name_pattern, symbol_pattern, mayhem, cashback, min_initial_buy, max_initial_buy, max_per_hour",
  ),
  size_units: nullableText(
    "sells: the token units the price is computed for (a percentage resolved at creation)",
  ),
  triggers: closedObject(
    {
      limit: { ...ref("OrderTrigger"), description: "a limit order's level" },
      take_profit: { ...ref("OrderTrigger"), description: "the take-profit level" },
      stop_loss: { ...ref("OrderTrigger"), description: "the stop-loss level" },
    },
    {
      description: "the levels (a bracket has both take_profit and stop_loss: one firing ends the other)",
      required: [],
    },
  ),
  trail_percent: nullableText("trailing_stop: percent below the highest price seen"),
  entry_price: nullableText(
    "the entry price percent levels were computed from (SOL per whole token, fees included)",
  ),
  entry_source: {
    type: ["string", "null"],
    enum: ["position", "request", "price_at_creation", null],
    description:
      "where entry_price came from: position (the average entry of the wallet's position in the mint), request (the body's entry_price), price_at_creation (orders placed before positions were used)",
  },
  slippage_bps: { type: "integer", description: "slippage bound of the trade it sends" },
  priority_fee_lamports: nullableText("the order's own priority fee per transaction"),
  tip_lamports: nullableText("the order's own relay tip"),
  max_retries: { type: "integer", description: "sends again of a sell that failed on chain" },
} as const;

/** An order (the `Order` component). */
export const orderComponent = closedObject(
  {
    id: text("the order id"),
    state: {
      type: "string",
      enum: ["open", "triggered", "filled", "failed", "cancelled", "expired"],
      description: "open (waiting), triggered (sending), filled, failed (error says why), cancelled, expired",
    },
    wallet: text("the managed wallet that trades"),
    ...specProperties,
    peak_price: nullableText("trailing_stop: the highest price seen so far"),
    attempts: { type: "integer", description: "sends so far" },
    triggered_by: nullableText(
      "the trigger that fired: limit, take_profit, stop_loss, trailing_stop or on_migration",
    ),
    error: anyJson("why the order failed (a policy refusal or the chain's error); null otherwise"),
    execution_ids: { type: "array", items: { type: "string" }, description: "the executions it produced" },
    expires_at: nullableText("when an open order expires (ISO 8601)"),
    created_at: text("ISO 8601"),
    updated_at: text("ISO 8601"),
    price_now: nullableText("on creation: the price of the order's size now"),
  },
  {
    $id: "Order",
    description: "An order the service runs, with its state and the executions it produced",
    optional: [
      "price_now",
      "rule",
      "copy",
      "size_units",
      "triggers",
      "trail_percent",
      "entry_price",
      "entry_source",
      "max_retries",
    ],
  },
);

const orderSchema = ref("Order");

const idParams = {
  type: "object",
  properties: { id: { type: "string", description: "the order id" } },
  required: ["id"],
} as const;

// 403 is the shared Refusal (openapi/rules.ts): a policy or scope refusal names its rule.
const orderErrors = { ...executionErrors, 409: executionErrors[401] } as const;

function callerOf(req: FastifyRequest): OrderCaller {
  return { accountId: requireApiKey(req).id, key: requireCustodyKey(req) };
}

/** Registers the order routes. */
export function orderRoutes(app: FastifyInstance, deps: OrderRouteDeps): void {
  const service = (req: FastifyRequest): OrderServiceDeps => {
    const chain = requireChain(deps.chain);
    if (deps.venues === undefined || deps.engine === undefined || !deps.venues.enabled())
      throw new ApiError(400, ORDER_RULES.noWarmState);
    return { ...deps, chain, venues: deps.venues, engine: deps.engine, store: storeOf(req) };
  };
  app.post(
    "/v1/orders",
    {
      // The Idempotency-Key header as on the execution routes (hooks/idempotency.ts documents it).
      config: { scope: "trade", idempotent: true },
      schema: {
        tags: ["orders"],
        security: apiKeySecurity,
        summary:
          "Place an order the service runs: limit, take_profit, stop_loss, trailing_stop, bracket, on_migration, snipe or copy",
        description:
          "The level is a price in SOL per whole token of the order's own size, quoted with the venue's math and fees " +
          "on the warm state; take_profit / stop_loss also take percent (from entry_price, default the average entry " +
          "price of the wallet's position in the mint: 400 when it holds none or its cost is unknown) or sol_out. " +
          "dry_run: true answers what the order would do now and stores nothing. " +
          "Idempotency-Key as on the execution routes: the same key and body replay the first answer.",
        // Typed in the document from the body's one description (domain/orders/body-schema.ts); the parsers
        // validate, with their own texts.
        body: { type: "object" },
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (req, reply) => {
      // Under an Idempotency-Key the order's id follows from the key's claim: a rerun after a crash finds it.
      const claim = req.idempotency?.claim.id;
      const answer = await createOrder(service(req), callerOf(req), req.body, claim);
      // A dry run's answer has its own shape: serialized as is.
      if ((answer as { dry_run?: boolean }).dry_run === true)
        reply.serializer((p: unknown) => JSON.stringify(p));
      return answer;
    },
  );
  app.get(
    "/v1/orders",
    {
      config: { scope: "read" },
      schema: {
        tags: ["orders"],
        security: apiKeySecurity,
        summary: "List this account's orders, newest first",
        querystring: {
          type: "object",
          properties: {
            state: { type: "string", description: "only orders in this state" },
            mint: { type: "string", description: "only orders on this mint" },
            limit: { type: "string", description: "1 to 500, default 100" },
          },
        },
        response: {
          200: closedObject({ orders: { type: "array", items: orderSchema, description: "the orders" } }),
          ...orderErrors,
        },
      },
    },
    async (req) => listOrders({ store: storeOf(req) }, callerOf(req), req.query as Record<string, unknown>),
  );
  app.get(
    "/v1/orders/:id",
    {
      config: { scope: "read" },
      schema: {
        tags: ["orders"],
        security: apiKeySecurity,
        summary: "One order with its state and the executions it produced",
        params: idParams,
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (req) => getOrder({ store: storeOf(req) }, callerOf(req), (req.params as { id: string }).id),
  );
  app.delete(
    "/v1/orders/:id",
    {
      config: { scope: "trade" },
      schema: {
        tags: ["orders"],
        security: apiKeySecurity,
        summary: "Cancel an open order (409 naming its state otherwise)",
        params: idParams,
        response: { 200: orderSchema, ...orderErrors },
      },
    },
    async (req) => {
      const store = storeOf(req);
      const engine = deps.engine;
      if (engine === undefined) throw new ApiError(400, ORDER_RULES.noWarmState);
      return cancelOrder({ store, engine }, callerOf(req), (req.params as { id: string }).id);
    },
  );
}
