/** POST /v1/laser/setup: unauthenticated, one call per client IP per 5 s across all processes. */
import type { FastifyInstance } from "fastify";
import type { HardeningSettings } from "../../config/hardening.js";
import { ApiError, FOUNDATION } from "../../core/errors.js";
import { setupGate } from "../hooks/setup-gate.js";
import { runSetup } from "../../domain/wallets/setup.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import type { RateLimiter } from "../hooks/rate-limiters.js";
import { errorSchema } from "../openapi/schemas.js";

const SETUP_WINDOW_MS = 5000;

/** Registers the setup route. */
export function setupRoutes(
  app: FastifyInstance,
  deps: {
    store: Store;
    vault: Vault;
    clock: () => Date;
    rateLimiter: RateLimiter;
    config: { hardening: HardeningSettings };
  },
): void {
  const gate = setupGate(deps.config.hardening);
  app.post(
    "/v1/laser/setup",
    {
      config: { public: true },
      schema: {
        tags: ["setup"],
        summary: "Create an API key and its first default wallet (secrets returned once)",
        response: {
          200: {
            type: "object",
            properties: {
              api_key: { type: "string", description: "the root API key, sent as x-api-key (shown once)" },
              wallet_public_key: { type: "string", description: "the first (default) wallet's address" },
              wallet_private_key: { type: "string", description: "base58 64-byte secret key" },
            },
            required: ["api_key", "wallet_public_key", "wallet_private_key"],
            additionalProperties: false,
          },
          401: errorSchema,
          403: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (req, reply) => {
      gate(req);
      // req.ip is the socket address, or the X-Forwarded-For client when TRUST_PROXY allows it.
      const allowed = await deps.rateLimiter.hit(`setup:${req.ip}`, deps.clock().getTime(), SETUP_WINDOW_MS);
      if (!allowed) {
        void reply.header("Retry-After", String(SETUP_WINDOW_MS / 1000));
        throw new ApiError(429, FOUNDATION.setupRateLimited);
      }
      const result = await runSetup(deps);
      void reply.header("Cache-Control", "no-store");
      return result;
    },
  );
}
