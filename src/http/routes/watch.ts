/** POST/GET /v1/watch and DELETE /v1/watch/{mint}: the mints whose venue state is kept warm (issue 18). */
import type { FastifyInstance } from "fastify";
import { PublicKey } from "@solana/web3.js";
import { ApiError, badRequest, WATCH_RULES } from "../../core/errors.js";
import { requireChain } from "../../domain/execution/gate.js";
import type { WarmVenues } from "../../domain/watch/setup.js";
import { warmFirstBuys } from "../../domain/watch/plan-warmup.js";
import { storeOf } from "../hooks/custody.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, executionErrors, ref } from "../openapi/schemas.js";

const MAX_MINTS = 100;

/** The watched mints (the `WatchedMints` component). */
export const watchedComponent = {
  $id: "WatchedMints",
  type: "object",
  description: "The mints whose venue state is kept warm",
  properties: {
    watched: {
      type: "array",
      items: { type: "string" },
      description: "the mints (base58) this account watches or traded that are kept warm",
    },
  },
  required: ["watched"],
  additionalProperties: false,
} as const;

const watchedResponse = ref("WatchedMints");

function mintOf(v: unknown): string {
  if (typeof v !== "string") throw badRequest(WATCH_RULES.mintInvalid);
  try {
    const key = new PublicKey(v);
    if (key.toBase58() !== v) throw new Error("not canonical");
    return v;
  } catch {
    throw badRequest(WATCH_RULES.mintInvalid, { mint: v });
  }
}

function mintsOf(body: unknown): string[] {
  const mints = (body as { mints?: unknown } | null)?.mints;
  if (!Array.isArray(mints) || mints.length === 0 || mints.length > MAX_MINTS) {
    throw badRequest(WATCH_RULES.mintsList);
  }
  return [...new Set(mints.map(mintOf))];
}

/** Registers the watch routes; `warm` undefined (no chain) answers 503 like the execution routes. */
export function watchRoutes(app: FastifyInstance, deps: { warm?: WarmVenues }): void {
  const warmOf = () => {
    const w = requireChain(deps.warm);
    if (!w.venues.enabled()) throw new ApiError(400, WATCH_RULES.disabled);
    return w.venues;
  };
  app.post(
    "/v1/watch",
    {
      config: { scope: "trade" },
      schema: {
        tags: ["watch"],
        security: apiKeySecurity,
        summary: "Keep the venue state of mints warm (subscribed), so their trades skip the read",
        description:
          "Answers once the subscriptions are live. The warm state is a cache shared by the whole service (an " +
          "LRU of WATCHED_MINTS_MAX mints); the interest is the account's own: GET /v1/watch lists, and " +
          "DELETE /v1/watch/{mint} ends, only this account's. The account's wallets are kept warm too: the first " +
          "buy of a watched mint by any of them is built from the warm state (its token account created " +
          'idempotently) and answers state_source "cache".',
        // Documented, not typed: the route's own checks give the exact error texts.
        body: {
          type: "object",
          properties: { mints: { description: `1 to ${MAX_MINTS} mint addresses (base58)` } },
        },
        response: { 200: watchedResponse, ...executionErrors },
      },
      // Before schema validation, so a body that is not an object gets the route's own text.
      preValidation: async (req) => {
        mintsOf(req.body);
      },
    },
    async (req) => {
      const account = requireApiKey(req).id;
      const venues = warmOf();
      const mints = mintsOf(req.body);
      // The account's wallets' own accounts too: the first buy of a watched mint by any of them needs no read.
      // The request's own store: only the wallets the key may use.
      const wallets = await storeOf(req).listWallets(account);
      await Promise.all([
        ...mints.map((m) => venues.watch(m, true, account)),
        venues.warmWallets(wallets.map((w) => w.publicKey)),
      ]);
      // The first buy's account derivations (plan and v3 buy addresses), done now rather than on its own path.
      warmFirstBuys(mints, wallets, venues);
      return { watched: mints };
    },
  );
  app.get(
    "/v1/watch",
    {
      config: { scope: "read" },
      schema: {
        tags: ["watch"],
        security: apiKeySecurity,
        summary:
          "List the mints this account watches or traded that are kept warm (least recently traded first)",
        response: { 200: watchedResponse, ...executionErrors },
      },
    },
    async (req) => {
      const account = requireApiKey(req).id;
      return {
        watched: warmOf()
          .list(account)
          .map((w) => w.mint),
      };
    },
  );
  app.delete(
    "/v1/watch/:mint",
    {
      config: { scope: "trade" },
      schema: {
        tags: ["watch"],
        security: apiKeySecurity,
        summary:
          "End this account's interest in a mint (its subscriptions end when no other account wants it)",
        params: {
          type: "object",
          properties: { mint: { type: "string", description: "the mint (base58)" } },
          required: ["mint"],
        },
        response: {
          200: {
            type: "object",
            properties: {
              unwatched: { type: "string", description: "the mint this account no longer watches" },
            },
            required: ["unwatched"],
            additionalProperties: false,
          },
          ...executionErrors,
        },
      },
    },
    async (req) => {
      const account = requireApiKey(req).id;
      const mint = mintOf((req.params as { mint: string }).mint);
      // 404 unless this account watched or traded it: another account's mints are neither seen nor evicted.
      if (!warmOf().unwatch(mint, account)) throw new ApiError(404, WATCH_RULES.notWatched);
      return { unwatched: mint };
    },
  );
}
