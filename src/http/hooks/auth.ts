/**
 * x-api-key authentication and authorization: on by default for every route; routes opt out with
 * `config: { public: true }` and declare the scope they need with `config: { scope }` (issue 19). Every
 * request reads its key from the database, so a revocation or freeze holds at once in every process.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, FOUNDATION } from "../../core/errors.js";
import { authorize, type RouteScope } from "../../domain/keys/scopes.js";
import type { ApiKeyRecord, KeyRecord, Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated account (its root key's id); set by the auth hook on every non-public route. */
    apiKey: ApiKeyRecord | null;
    /** The key that authenticated the request (root or sub-key), with its scopes, binding and policy. */
    custodyKey: KeyRecord | null;
  }
  interface FastifyContextConfig {
    /** True for routes that need no x-api-key (setup, health, docs). */
    public?: boolean;
    /**
     * The scope a key needs for this route (shown in the OpenAPI document as x-required-scope). Undeclared:
     * `read` for GET, the root key for anything else, so a route added without a scope is closed to sub-keys.
     */
    scope?: RouteScope;
    /** True for POST /v1/account/unfreeze: the root key may call it while the account is frozen. */
    allowFrozenAccount?: boolean;
    /**
     * True for GET /v1/stream: the x-api-key header may be left out (the WebSocket then authenticates by its
     * first message); a header that is sent is checked as on every route.
     */
    optionalKey?: boolean;
  }
}

/** The authenticated key of a request on a non-public route. */
export function requireApiKey(req: FastifyRequest): ApiKeyRecord {
  if (req.apiKey === null) throw new ApiError(401, FOUNDATION.apiKeyMissing);
  return req.apiKey;
}

/** The key (root or sub-key) that authenticated a request on a non-public route, with its powers. */
export function requireCustodyKey(req: FastifyRequest): KeyRecord {
  if (req.apiKey === null || req.custodyKey === null) throw new ApiError(401, FOUNDATION.apiKeyMissing);
  return req.custodyKey;
}

/** The scope a route needs: its declared one, or the default for undeclared routes. */
export function routeScope(method: string, scope: RouteScope | undefined): RouteScope {
  return scope ?? (method === "GET" ? "read" : "root");
}

/** What the key checks read: the key table, the hash and the app's clock. */
export interface KeyCheckDeps {
  store: Pick<Store, "findKeyByHash">;
  vault: Pick<Vault, "hashApiKey">;
  clock: () => Date;
}

/**
 * Whether a matched route needs no key: one marked `public`, or swagger-ui's own routes (under /docs). Takes
 * `req.routeOptions`' fields, read once by the caller (an unmatched URL, `url` undefined, goes to the 404 handler).
 */
export function isPublicRoute(url: string, config: { public?: boolean }): boolean {
  return config.public === true || url === "/docs" || url.startsWith("/docs/");
}

/**
 * Declares the request fields the auth hook sets (`apiKey`, `custodyKey`; null until it does). Called by the
 * app before any plugin registers routes (see declareRequestFields in app.ts).
 */
export function declareAuthFields(app: FastifyInstance): void {
  app.decorateRequest("apiKey", null);
  app.decorateRequest("custodyKey", null);
}

/**
 * Installs the onRequest hook that authenticates and authorizes every route not marked public (the fields it
 * sets are declared by `declareAuthFields`).
 */
export function installAuth(
  app: FastifyInstance,
  deps: KeyCheckDeps & {
    /**
     * The error an unknown, revoked or expired key gets (`failure`: its 401), counted and throttled per IP
     * (auth-failures.ts); default the 401 itself.
     */
    onInvalidKey?: (req: FastifyRequest, reply: FastifyReply, failure: ApiError) => Promise<ApiError>;
    /** The error a key refused here gets (403 scope or frozen), e.g. a 429 past its refusals budget. */
    onRefusal?: (
      req: FastifyRequest,
      reply: FastifyReply,
      refusal: ApiError,
      key: KeyRecord,
    ) => Promise<ApiError>;
  },
): void {
  app.addHook("onRequest", async (req, reply) => {
    // Read once: Fastify builds a new routeOptions object (and asks the router a question) on every access.
    const { url, config } = req.routeOptions;
    if (url === undefined || isPublicRoute(url, config)) return;
    const header = req.headers["x-api-key"];
    const presented = Array.isArray(header) ? header[0] : header;
    if (presented === undefined || presented.trim() === "") {
      if (config.optionalKey === true) return;
      throw new ApiError(401, FOUNDATION.apiKeyMissing);
    }
    const key = await deps.store.findKeyByHash(deps.vault.hashApiKey(presented.trim()));
    if (key === undefined) {
      const failure = new ApiError(401, FOUNDATION.apiKeyInvalid);
      throw deps.onInvalidKey !== undefined ? await deps.onInvalidKey(req, reply, failure) : failure;
    }
    // Set before the checks, so a refusal is still written to the activity log under this key.
    req.custodyKey = key;
    const checked = config.allowFrozenAccount === true && key.root ? { ...key, accountFrozen: false } : key;
    const access = req.method === "GET" || req.method === "HEAD" ? "read" : "write";
    try {
      authorize(checked, routeScope(req.method, config.scope), deps.clock(), access);
    } catch (e) {
      // A revoked or expired key is throttled per IP like an unknown one; a refusal spends the key's refusals
      // budget (the route's own budget hook never runs for it).
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 401 && deps.onInvalidKey !== undefined) throw await deps.onInvalidKey(req, reply, e);
      if (e.status === 403 && deps.onRefusal !== undefined) throw await deps.onRefusal(req, reply, e, key);
      throw e;
    }
    // Wallets and executions belong to the account: every domain call works on the root key's id.
    req.apiKey = { id: key.accountId, keyHash: "", createdAt: key.createdAt };
  });
}
