/** GET /v1/quote (issue 22): a trade's price on its venue, without a wallet. */
import { VENUES } from "../../core/venues.js";
import type { FastifyInstance } from "fastify";
import type { Chain } from "../../chain/chain.js";
import type { RequestBody } from "../../core/request-fields.js";
import { requireChain } from "../../domain/execution/gate.js";
import { quote, type QuoteDeps } from "../../domain/trade/quote-service.js";
import {
  apiKeySecurity,
  authErrors,
  errorSchema,
  closedObject,
  documentedFields,
} from "../openapi/schemas.js";
import { TRADE_PRICING_FIELDS, TRADE_TARGET_FIELDS } from "../../domain/trade/kind.js";

const text = (description: string) => ({ type: "string", description }) as const;

// Fields are documented but not typed: the trade's own parser applies its rules and exact texts; the ones a
// trade takes too are described as the trade route describes them.
const quoteQuery = documentedFields({
  mint: TRADE_TARGET_FIELDS.mint,
  side: { description: "buy or sell (alias action)" },
  amount: {
    description:
      "as in a trade: SOL for a buy (token atomic units with denominated_in_sol=false), token atomic units for a sell; no percentages",
  },
  amount_tokens: {
    description: 'sells: whole tokens (e.g. "1.5"), converted with the mint\'s decimals, instead of amount',
  },
  ...TRADE_PRICING_FIELDS,
  pool: TRADE_TARGET_FIELDS.pool,
});

const quoteAnswer = closedObject(
  {
    mint: text("the quoted mint (for an explicit pool, its base mint)"),
    side: { type: "string", enum: ["buy", "sell"], description: "the quoted side" },
    venue: {
      type: "string",
      enum: [...VENUES],
      description: "where the same trade would execute now, routed as the trade routes",
    },
    pool: { type: ["string", "null"], description: "the launchswap pool, null on the bonding curve" },
    amount: text("the request's amount as text"),
    amount_units: {
      type: "integer",
      description: "parsed amount: lamports for a SOL buy, token atomic units otherwise",
    },
    amount_units_text: {
      type: "string",
      description: "amount_units as decimal text (exact above 2^53; every other amount is text)",
    },
    denominated_in_sol: { type: "boolean", description: "final value after defaults" },
    slippage_bps: { type: "integer", description: "the slippage the bounds below apply, in basis points" },
    tokens_out: text("buys: token atomic units the trade receives"),
    sol_in_lamports: text(
      "buys: lamports the trade pays the venue, its fees included (network fee, priority fee, tip and rent not)",
    ),
    sol_out_lamports: text(
      "sells: lamports the trade receives after the venue's fees (network fee, priority fee and tip not deducted)",
    ),
    max_sol_in_lamports: text(
      "buys: the most lamports the trade may pay after slippage (as the trade sends)",
    ),
    min_tokens_out: text("buys: the fewest token atomic units after slippage (exact for a token-amount buy)"),
    tokens_in: text("sells: the token atomic units sold"),
    min_sol_out_lamports: text("sells: the fewest lamports received after slippage"),
    price_impact_percent: text(
      "percent the execution price (venue lamports per token, fees excluded) lies from the spot price before the trade, against the trader; 4 decimals",
    ),
    fees: closedObject(
      {
        protocol_fee_lamports: text("protocol fee (its buyback share included)"),
        creator_fee_lamports: text(
          "creator fee (0 without a creator; on cashback coins credited to the trader's cashback)",
        ),
        lp_fee_lamports: {
          type: ["string", "null"],
          description: "liquidity-provider fee on launchswap; null on the bonding curve, which has none",
        },
        total_fee_lamports: text("sum of the fees above"),
      },
      {
        description: "the venue's fees of this trade in lamports, included in sol_in / deducted from sol_out",
      },
    ),
    state_source: {
      type: "string",
      enum: ["cache", "read", "event"],
      description: "cache: the warm state of a watched mint (no read); read: this quote's one account read",
    },
    state_slot: { type: "integer", description: "slot of the state the quote used" },
  },
  {
    required: [
      "mint",
      "side",
      "venue",
      "pool",
      "amount",
      "amount_units",
      "amount_units_text",
      "denominated_in_sol",
      "slippage_bps",
      "price_impact_percent",
      "fees",
      "state_source",
      "state_slot",
    ],
  },
);

/** Registers the quote route. */
export function quoteRoutes(
  app: FastifyInstance,
  deps: { chain?: QuoteDeps["chain"] | Chain } & Omit<QuoteDeps, "chain">,
): void {
  app.get(
    "/v1/quote",
    {
      // A quote reads the chain for what it names, like the checks: it spends the checks budget.
      config: { scope: "read", rateClass: "checks" },
      schema: {
        tags: ["trades"],
        security: apiKeySecurity,
        summary: "Price a buy or sell on the bonding curve or its launchswap pool, without a wallet",
        querystring: quoteQuery,
        response: {
          200: quoteAnswer,
          400: errorSchema,
          502: errorSchema,
          503: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const chain = requireChain(deps.chain);
      return quote({ ...deps, chain }, (req.query ?? {}) as RequestBody, req.apiKey?.id);
    },
  );
}
