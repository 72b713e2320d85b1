/** GET /v1/routes: the landing routes (ROUTES) with their rolling figures from this service's own traffic. */
import type { FastifyInstance } from "fastify";
import type { TradeRacing } from "../../domain/trade/raced-trade.js";
import { apiKeySecurity, authErrors, ref } from "../openapi/schemas.js";

const windowSchema = {
  type: "object",
  description: "one window's figures (the variants sent on the route)",
  properties: {
    sent: { type: "integer", description: "variants sent" },
    landed: { type: "integer", description: "variants that landed (won their race)" },
    landing_rate: { type: ["number", "null"], description: "landed / sent; null before any send" },
    slots_to_land_p50: { type: ["integer", "null"], description: "slots from send to land, median" },
    slots_to_land_p90: { type: ["integer", "null"], description: "slots from send to land, 90th percentile" },
    errors: { type: "integer", description: "sends the route refused or failed to answer" },
    tips_paid_lamports: { type: "string", description: "tips paid by the variants that landed (lamports)" },
  },
  required: [
    "sent",
    "landed",
    "landing_rate",
    "slots_to_land_p50",
    "slots_to_land_p90",
    "errors",
    "tips_paid_lamports",
  ],
  additionalProperties: false,
} as const;

/** The route list (the `Routes` component). */
export const routesComponent = {
  $id: "Routes",
  type: "object",
  description: "The routes raced trades are sent over, with their landing figures",
  properties: {
    routes: {
      type: "array",
      description: "every configured route, in configuration order",
      items: {
        type: "object",
        properties: {
          name: { type: "string", description: "the route's preset name" },
          mev_protect: { type: "boolean", description: "whether it protects from sandwiching" },
          tip_accounts: { type: "integer", description: "how many tip accounts the route's tips go to" },
          min_tip_lamports: { type: "string", description: "the route's published minimum tip" },
          demoted: { type: "boolean", description: "left out of races for now after failing repeatedly" },
          demoted_reason: { type: ["string", "null"], description: "why it was demoted" },
          demoted_until: { type: ["string", "null"], description: "when it is tried again (ISO 8601)" },
          last_1h: windowSchema,
          last_24h: windowSchema,
        },
        required: [
          "name",
          "mev_protect",
          "tip_accounts",
          "min_tip_lamports",
          "demoted",
          "demoted_reason",
          "demoted_until",
          "last_1h",
          "last_24h",
        ],
        additionalProperties: false,
      },
    },
  },
  required: ["routes"],
  additionalProperties: false,
} as const;

/** Registers GET /v1/routes; without ROUTES the list is empty. */
export function routeRoutes(app: FastifyInstance, deps: { racing?: TradeRacing }): void {
  app.get(
    "/v1/routes",
    {
      config: { scope: "read" },
      schema: {
        tags: ["routes"],
        security: apiKeySecurity,
        summary: "List the landing routes (ROUTES) with their landing rate, slots to land, errors and tips",
        description:
          "Figures from this service's own raced trades, over the last hour and the last day. A route whose " +
          "last sends all failed is demoted (left out of races for a minute) and says why.",
        response: { 200: ref("Routes"), ...authErrors },
      },
    },
    async () => {
      const racing = deps.racing;
      if (racing === undefined) return { routes: [] };
      return {
        routes: racing.routes.map((r) => {
          const d = racing.stats.demotion(r.name);
          const w = racing.stats.windows(r.name);
          return {
            name: r.name,
            mev_protect: r.mevProtect,
            tip_accounts: r.tipAccounts.length,
            min_tip_lamports: r.minTipLamports.toString(),
            demoted: d.demoted,
            demoted_reason: d.reason,
            demoted_until: d.until_ms === null ? null : new Date(d.until_ms).toISOString(),
            last_1h: w["1h"],
            last_24h: w["24h"],
          };
        }),
      };
    },
  );
}
