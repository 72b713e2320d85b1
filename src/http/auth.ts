/** x-api-key authentication: on by default for every route; routes opt out with `config: { public: true }`. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, FOUNDATION } from "../core/errors.js";
import type { ApiKeyRecord, Store } from "../store/index.js";
import type { Vault } from "../vault/index.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated key; set by the auth hook on every non-public route. */
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyContextConfig {
    /** True for routes that need no x-api-key (setup, health, docs). */
    public?: boolean;
  }
}

/** The authenticated key of a request on a non-public route. */
export function requireApiKey(req: FastifyRequest): ApiKeyRecord {
  if (req.apiKey === null) throw new ApiError(401, FOUNDATION.apiKeyMissing);
  return req.apiKey;
}

/** Installs the onRequest hook that authenticates every route not marked public. */
export function installAuth(
  app: FastifyInstance,
  deps: {
    store: Pick<Store, "findApiKeyByHash">;
    vault: Pick<Vault, "hashApiKey">;
    /** The error an unknown key gets (counted, throttled per IP: auth-failures.ts); default a plain 401. */
    onInvalidKey?: (req: FastifyRequest, reply: FastifyReply) => Promise<ApiError>;
  },
): void {
  app.decorateRequest("apiKey", null);
  app.addHook("onRequest", async (req, reply) => {
    const url = req.routeOptions.url;
    // Unmatched URLs go to the 404 handler; swagger-ui's own routes (under /docs) are public.
    if (
      url === undefined ||
      req.routeOptions.config.public === true ||
      url === "/docs" ||
      url.startsWith("/docs/")
    )
      return;
    const header = req.headers["x-api-key"];
    const presented = Array.isArray(header) ? header[0] : header;
    if (presented === undefined || presented.trim() === "") throw new ApiError(401, FOUNDATION.apiKeyMissing);
    const key = await deps.store.findApiKeyByHash(deps.vault.hashApiKey(presented.trim()));
    if (key === undefined) {
      throw deps.onInvalidKey !== undefined
        ? await deps.onInvalidKey(req, reply)
        : new ApiError(401, FOUNDATION.apiKeyInvalid);
    }
    req.apiKey = key;
  });
}
