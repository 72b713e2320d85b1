/**
 * Issue 33: GET /v1/positions, GET /v1/positions/{wallet}/{mint} and GET /v1/pnl: the positions ledger kept
 * from the fills (average-cost method, docs/positions.md), valued at the liquidation value on the warm state.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  LIST_VALUATIONS,
  PNL_GROUPS,
  POSITION_STATUSES,
  POSITIONS_MAX_LIMIT,
  VALUATIONS,
  parsePnlQuery,
  parsePositionsQuery,
  parseValuation,
} from "../../domain/positions/query.js";
import { PositionTextCache } from "../../domain/positions/page-text.js";
import { getPosition, listPositionsBytes, pnl, type PositionsDeps } from "../../domain/positions/service.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, authErrors, closedObject, errorSchema, ref } from "../openapi/schemas.js";
import { VENUES } from "../../core/venues.js";

const text = (description: string) => ({ type: "string", description }) as const;
const textOrNull = (description: string) => ({ type: ["string", "null"], description }) as const;

/** One position (the `Position` component). */
export const positionComponent = closedObject(
  {
    wallet: text("the managed wallet"),
    mint: text("the token mint"),
    status: { type: "string", enum: [...POSITION_STATUSES], description: "open while any token is held" },
    tokens_held: text("token atomic units held, as the ledger counts them (unknown-basis ones included)"),
    tokens_on_chain: textOrNull(
      "the wallet's balance of the mint in the state valued (null when not valued); when it differs from tokens_held, tokens moved outside the service since the last trade: the ledger records them, at an unknown basis, at the next trade",
    ),
    unknown_basis_tokens: text(
      "part of tokens_held that arrived outside the service (transfer in, airdrop): no cost basis, not in the average",
    ),
    cost_basis_lamports: text(
      "what the known-basis tokens held cost: every lamport the buys spent (trade, network fee, tip, rent), less the share sold",
    ),
    cost_basis_fee_lamports: text("the fee part of cost_basis_lamports (network fee, tip and rent)"),
    average_entry_price_lamports: textOrNull(
      "cost_basis_lamports per whole token (10^decimals atomic units), 6 decimals, truncated; null when no known-basis token is held",
    ),
    decimals: { type: ["integer", "null"], description: "the mint's decimals, as the fills stated them" },
    realized_pnl_lamports: text(
      "sum over sells of the net SOL received minus the average cost of the known-basis tokens sold",
    ),
    unknown_basis_proceeds_lamports: text(
      "net SOL received for unknown-basis tokens sold (kept out of realized PnL)",
    ),
    liquidation_value_lamports: textOrNull(
      "what selling every token held would return now after the venue's fees (the trade's quote math on the warm state); null when not valued (see valuation.detail)",
    ),
    unrealized_pnl_lamports: textOrNull(
      "liquidation value of the known-basis tokens (their share of the liquidation value) minus cost_basis_lamports; null when not valued",
    ),
    valuation: closedObject(
      {
        source: {
          type: "string",
          enum: ["cache", "read", "none"],
          description:
            "cache: warm venue state; read: one venue read now; none: not valued (or nothing held)",
        },
        slot: { type: ["integer", "null"], description: "the slot of the state valued" },
        venue: {
          type: ["string", "null"],
          enum: [...VENUES, null],
          description: "where the sale would execute",
        },
        detail: text("why there is no value"),
      },
      { optional: ["detail"], description: "where the liquidation value came from" },
    ),
    bought_tokens: text("token atomic units bought, over the position's life"),
    sold_tokens: text("token atomic units sold"),
    spent_lamports: text("SOL spent on buys, fees, tip and rent included"),
    received_lamports: text("net SOL received from sells (after network fee and tip)"),
    fee_lamports: text("network fees (base + priority) paid by the trades"),
    tip_lamports: text("relay tips paid by the trades"),
    rent_lamports: text("rent of accounts the trades created"),
    tokens_in_outside: text("token atomic units seen arriving outside the service"),
    tokens_out_outside: text("token atomic units seen leaving outside the service"),
    trade_count: { type: "integer", description: "fills applied" },
    opened_at: text("RFC 3339 UTC with Z: the first trade (again after the position was closed)"),
    last_trade_at: text("RFC 3339 UTC with Z: the last trade"),
    closed_at: textOrNull("RFC 3339 UTC with Z: when it was sold out; null while open"),
    last_execution_id: textOrNull("the execution of the last trade (GET /v1/executions/{id})"),
  },
  {
    $id: "Position",
    description: "A wallet × mint position kept from the confirmed fills (average-cost method)",
  },
);

const pnlFigures = {
  realized_pnl_lamports: text("realized PnL of the sells in the period"),
  unrealized_pnl_lamports: textOrNull(
    "unrealized PnL now of the open positions (warm-state valuation); null per day, or when one could not be valued",
  ),
  fee_lamports: text("network fees paid by the trades in the period"),
  tip_lamports: text("relay tips paid"),
  rent_lamports: text("rent paid"),
  volume_lamports: text("SOL spent on buys plus SOL received from sells"),
  buy_count: { type: "integer", description: "buys" },
  sell_count: { type: "integer", description: "sells" },
  trade_count: { type: "integer", description: "buys plus sells" },
} as const;

const valuationText =
  "warm values from the warm venue state only, read also reads a venue not in it (and watches it), none skips the valuation";

/** Whose positions a request reads: the key's account, and only its wallets for a wallet-bound key. */
function callerOf(req: FastifyRequest): { apiKeyId: number; onlyWallets: readonly string[] | undefined } {
  return { apiKeyId: requireApiKey(req).id, onlyWallets: req.custodyKey?.wallets ?? undefined };
}

/** Registers the positions and PnL routes. */
export function positionRoutes(app: FastifyInstance, deps: PositionsDeps): void {
  // This app's row texts of GET /v1/positions (page-text.ts).
  const texts = new PositionTextCache();
  app.get(
    "/v1/positions",
    {
      config: { scope: "read" },
      schema: {
        tags: ["positions"],
        security: apiKeySecurity,
        summary: "List this account's positions (wallet × mint), ordered by wallet then mint",
        querystring: {
          type: "object",
          properties: {
            wallet: { description: "only this wallet's positions" },
            mint: { description: "only positions of this mint" },
            status: { description: `only ${POSITION_STATUSES.join(" or ")} positions` },
            limit: { description: `page size, 1 to ${POSITIONS_MAX_LIMIT} (default 100)` },
            after: { type: "string", description: "cursor paging: next_cursor of the previous page" },
            valuation: { description: `${LIST_VALUATIONS.join(" or ")} (default warm): ${valuationText}` },
          },
        },
        response: {
          200: closedObject({
            positions: { type: "array", items: ref("Position"), description: "ordered by wallet, then mint" },
            limit: { type: "integer", description: "the page size used" },
            next_cursor: textOrNull("pass as ?after= for the next page; null on the last page"),
          }),
          400: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req, reply) => {
      const q = parsePositionsQuery(req.query as Record<string, unknown>);
      // Already the answer's JSON bytes (the schema above documents them): a buffer is sent as it is, not
      // serialized again.
      void reply.type("application/json; charset=utf-8");
      return listPositionsBytes(deps, callerOf(req), q, texts);
    },
  );

  app.get(
    "/v1/positions/:wallet/:mint",
    {
      // It may read the venue (valuation=read, the default), as a quote does: the checks budget.
      config: { scope: "read", rateClass: "checks" },
      schema: {
        tags: ["positions"],
        security: apiKeySecurity,
        summary: "One position, valued now",
        params: {
          type: "object",
          properties: { wallet: text("the wallet"), mint: text("the mint") },
          required: ["wallet", "mint"],
        },
        querystring: {
          type: "object",
          properties: {
            valuation: { description: `${VALUATIONS.join(", ")} (default read): ${valuationText}` },
          },
        },
        response: { 200: ref("Position"), 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (req) => {
      const who = callerOf(req);
      const mode = parseValuation((req.query as Record<string, unknown>).valuation, "read");
      return getPosition(deps, who, req.params as { wallet: unknown; mint: unknown }, mode);
    },
  );

  app.get(
    "/v1/pnl",
    {
      config: { scope: "read" },
      schema: {
        tags: ["positions"],
        security: apiKeySecurity,
        summary: "Realized and unrealized PnL, fees, tips, volume and trade counts, optionally grouped",
        querystring: {
          type: "object",
          properties: {
            from: { description: "start, inclusive: a date (YYYY-MM-DD, midnight UTC) or an RFC 3339 time" },
            to: { description: "end, exclusive: a date or an RFC 3339 time" },
            group_by: { description: `${PNL_GROUPS.join(", ")} (day: UTC days)` },
          },
        },
        response: {
          200: closedObject(
            {
              from: textOrNull("the start as RFC 3339 UTC; null: from the first trade"),
              to: textOrNull("the end as RFC 3339 UTC; null: up to now"),
              group_by: {
                type: ["string", "null"],
                enum: [...PNL_GROUPS, null],
                description: "the grouping asked for",
              },
              total: closedObject(pnlFigures, { description: "the whole period (every group)" }),
              groups: {
                type: "array",
                items: closedObject(
                  { key: text("the UTC day (YYYY-MM-DD), mint or wallet"), ...pnlFigures },
                  { description: "one group's figures" },
                ),
                description: "with group_by: one per key, in key order",
              },
            },
            { optional: ["groups"] },
          ),
          400: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const who = callerOf(req);
      return pnl(deps, who, parsePnlQuery(req.query as Record<string, unknown>));
    },
  );
}
