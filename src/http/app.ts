/** Builds the Fastify app from its dependencies; nothing here reads the environment or listens. */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Chain } from "../chain/chain.js";
import type { Config } from "../config/config.js";
import type { ApiError } from "../core/errors.js";
import { declareAuthFields } from "./hooks/auth.js";
import { cashbackRoutes } from "./routes/cashback.js";
import { frameworkErrorHandler, installErrorHandler } from "./hooks/error-handler.js";
import { installIdempotency } from "./hooks/idempotency.js";
import { parseJsonBody } from "./hooks/json-body.js";
import { installMetrics } from "./routes/metrics.js";
import { openapiBodyTypes } from "./openapi/body-types.js";
import { openapiRules, withOptionalBodies } from "./openapi/rules.js";
import { componentReference, registerComponents } from "./openapi/components.js";
import { observeOutcomes } from "../domain/execution/outcome-observer.js";
import { createMetrics, type Metrics } from "../observability/metrics.js";
import { executionRoutes } from "./routes/executions.js";
import { declareExecutionFields, installExecutionFields } from "./execute/execution-fields.js";
import { eventRoutes, type EventStreamTiming } from "./routes/events.js";
import { webhookRoutes } from "./routes/webhooks.js";
import type { HostLookup } from "../domain/webhooks/url-policy.js";
import { healthRoutes } from "./routes/health.js";
import type { RateLimiter } from "./hooks/rate-limiters.js";
import { installHardening, serverTimeouts, type RequestCounter } from "./hooks/hardening-install.js";
import { setupRoutes } from "./routes/setup.js";
import { quoteRoutes } from "./routes/quote.js";
import { walletRoutes } from "./routes/wallets.js";
import { balanceRoutes } from "./routes/balances.js";
import { walletDetailRoutes } from "./routes/wallet-detail.js";
import { startWarmVenues, type DecodedEventSource } from "../domain/watch/setup.js";
import { registerWarmStateMetrics } from "../observability/warm-state-metrics.js";
import { watchRoutes } from "./routes/watch.js";
import { positionRoutes } from "./routes/positions.js";
import { routeRoutes } from "./routes/routes.js";
import { registerRouteMetrics } from "../observability/route-metrics.js";
import type { TradeRacing } from "../domain/trade/raced-trade.js";
import type { NewExecution, OrderRecord, Store } from "../store/index.js";
import { custodyStore, requestOnlyStore } from "../domain/keys/custody-store.js";
import { dryRunDocument } from "./openapi/dry-run-schema.js";
import { custodyDocument } from "./openapi/custody-document.js";
import { balanceReader, computeUnitLimit } from "./hooks/custody-figures.js";
import { accountRoutes } from "./routes/account.js";
import { activityRoutes } from "./routes/activity.js";
import { declareCustodyFields, installCustody, relayTip } from "./hooks/custody.js";
import { installOrders } from "./routes/orders-engine.js";
import { keyRoutes } from "./routes/keys.js";
import { MarketHub } from "../domain/market/market-hub.js";
import type { StreamLimits } from "../domain/market/stream-session.js";
import { createStreamMetrics, type StreamMetrics } from "../observability/stream-metrics.js";
import { registerWebSocket, streamRoutes, withStreamPath } from "./routes/stream.js";
import { StreamRegistry } from "../domain/streams/stream-registry.js";
import type { Vault } from "../vault/index.js";
import { installSecurityHeaders } from "./hooks/security-headers.js";
import { lazyRequestLogger } from "./hooks/request-logger.js";
import { consoleRoutes } from "./routes/console.js";
import { registerKinds } from "./execute/execute-post.js";
import { createOutsideBuilds } from "../domain/outside/builds.js";
import { checkKinds, recordedKinds, type ExecutionKindEntry } from "../domain/execution/kind.js";
import { EXECUTION_KIND_LIST } from "../domain/kinds.js";

export interface AppDeps {
  config: Config;
  store: Store;
  vault: Vault;
  /** A pino logger (see createLogger); omitted = no logging. */
  logger?: FastifyBaseLogger;
  clock: () => Date;
  rateLimiter: RateLimiter;
  /**
   * Chain access (RPC, relays, caches, assembly, submission); started by the caller. Omitted: the app still
   * serves setup, wallets and history, and execution routes answer 503 (see requireChain).
   */
  chain?: Chain;
  /** Prometheus metrics served at /metrics; omitted = a fresh registry for this app (never a global one). */
  metrics?: Metrics;
  /**
   * The market stream (GET /v1/stream): the hub the chain feed publishes to, per-connection limits and
   * the stream metrics. Omitted: the route serves a hub nothing publishes to. `feed` (the process's market
   * feed) also refreshes the warm venue state from decoded trades; omitted, the warm state follows its
   * account notifications alone.
   */
  /** ROUTES: the routes trades race over and their figures (GET /v1/routes); absent: no racing. */
  racing?: TradeRacing;
  market?: {
    hub: MarketHub;
    feed?: DecodedEventSource;
    limits?: Partial<StreamLimits>;
    metrics?: StreamMetrics;
    pingMs?: number;
    /** The stream's wait for a closed connection's close answer before it is cut (tests); default 2 s. */
    closeGraceMs?: number;
  };
  /** Issue 20: timing of GET /v1/events (heartbeat, re-read); omitted = the defaults. */
  events?: EventStreamTiming;
  /** Issue 20: host resolution of webhook URLs (tests); omitted = the system resolver. */
  webhookLookup?: HostLookup;
  /**
   * Counters of the per-key budgets and invalid-key throttle (issue 23); omitted = on the store with
   * PostgreSQL (shared by every process), in memory with SQLite. main.ts passes Redis when REDIS_URL is set.
   */
  requestCounter?: RequestCounter;
  /** The operator console's built files (GET /console); omitted = dist/console of this package, null = off. */
  consoleDir?: string | null;
  /** The execution kinds served (issue 30); omitted = the service's list (src/domain/kinds.ts). */
  kinds?: readonly ExecutionKindEntry[];
  /** Issue 31: told when an order's fire settles (tests wait on it); omitted = nobody. */
  onOrderSettled?: (order: OrderRecord) => void;
  /**
   * Fastify's schema controller, e.g. compilers that reuse the response serializers an earlier app of the same
   * process built from identical schemas (tests build many apps); omitted = Fastify's own, as in production.
   */
  schemaController?: FastifyServerOptions["schemaController"];
}

const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * CSP of every response outside /docs: JSON and text load nothing, so nothing is allowed (and no framing).
 * Swagger UI gets its own policy below, replacing this one on its routes only.
 */
const API_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * Swagger UI's policy (its page has no inline script; its components set a few inline styles). No
 * upgrade-insecure-requests: a self-hosted instance is often reached over plain http by IP, where that
 * directive would break every asset.
 */
const DOCS_CSP = {
  "default-src": ["'self'"],
  "base-uri": ["'self'"],
  "script-src": ["'self'"],
  "script-src-attr": ["'none'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "object-src": ["'none'"],
  "frame-ancestors": ["'self'"],
};

/** Fastify's types omit the hop-count form, so a count becomes the equivalent trust function. */
function trustProxyOption(
  tp: Config["trustProxy"],
): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof tp === "number" ? (_addr, hop) => hop < tp : tp;
}

/** Builds the app: plugins, auth, error mapping, OpenAPI, and every route. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const kinds = deps.kinds ?? EXECUTION_KIND_LIST;
  // Deny by default: a kind without a spend plan (or two kinds on one path) stops the start-up here.
  checkKinds(kinds);
  // The words executions are recorded under: the history and events filters' allowed values, from the list.
  const recorded = recordedKinds(kinds);
  const app = Fastify({
    ...(deps.logger !== undefined
      ? { loggerInstance: deps.logger, childLoggerFactory: lazyRequestLogger }
      : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(deps.config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    frameworkErrors: frameworkErrorHandler,
    ...serverTimeouts(deps.config),
    ...(deps.schemaController !== undefined ? { schemaController: deps.schemaController } : {}),
  }) as unknown as FastifyInstance;
  // (cast: with loggerInstance Fastify infers a logger-specific instance type; routes only need the base type)

  // Own JSON parser: an empty body means "no fields" (set_default is optional), and parse errors become
  // fixed 400 texts instead of a message quoting the body.
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(typeof body === "string" ? body : body.toString("utf8")));
    } catch (e) {
      done(e as ApiError, undefined);
    }
  });

  installErrorHandler(app);
  await registerWebSocket(app);
  // The named component schemas (issue 23), before any route references them.
  registerComponents(app, recorded);
  declareRequestFields(app);
  // Before any plugin registers routes: its request decoration and onRoute hook must reach all of them.
  installIdempotency(app, {
    store: deps.store,
    nowMs: () => deps.clock().getTime(),
    onError: (e) =>
      app.log.error({ err: { message: (e as Error).message } }, "idempotency record not written"),
  });
  installSecurityHeaders(app, { contentSecurityPolicy: API_CSP });
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "lasertrade",
        version: "0.1.0",
        description: "Managed-wallet trading API",
        license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      },
      components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } } },
    },
    // Shared schemas become components.schemas.<$id> (components.ts), not def-0, def-1.
    refResolver: componentReference,
    // Typed request bodies in the document (for generated clients); validation keeps the domain parsers.
    // Execution kinds' bodies and examples come from their descriptors; then the rules every route shares
    // (operationId, description, 413/415/421/429, patterns: openapi-rules.ts).
    transform: (arg) => {
      const typed = dryRunDocument(custodyDocument(openapiBodyTypes(arg, recorded), arg.route), arg.route);
      const method = String(Array.isArray(arg.route.method) ? arg.route.method[0] : arg.route.method);
      if (typed.schema === undefined || (typed.schema as { hide?: boolean }).hide === true) return typed;
      return {
        ...typed,
        schema: openapiRules(typed.schema, arg.url, method.toUpperCase(), arg.route.config),
      };
    },
    // GET /v1/stream (issue 21) is a WebSocket route, which @fastify/websocket hides: documented here.
    // Optional bodies are stated as such (swagger marks every body required).
    transformObject: (doc) =>
      "openapiObject" in doc ? withOptionalBodies(withStreamPath(doc)) : doc.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: DOCS_CSP });
  const metrics = deps.metrics ?? createMetrics();
  // Host check, metrics token, authentication, per-key budgets, invalid-key throttle, response guards (issue 23).
  const { requestCounter, countAuthFailure } = installHardening(app, deps, metrics);
  // Issue 29: this process's open streams (WebSocket and SSE): caps per key and IP, closed when their key stops
  // authorizing them (key-change hints of this and other processes, expiry timers).
  const streams = new StreamRegistry({
    caps: {
      perKey: deps.config.streams.maxConnectionsPerKey,
      perIp: deps.config.streams.maxConnectionsPerIp,
    },
    store: deps.store,
    clock: deps.clock,
    onError: (e) => app.log.warn({ err: { message: (e as Error).message } }, "stream re-check failed"),
  });
  app.addHook("onClose", async () => streams.close());
  // Told by the key routes after every revoke, freeze, policy change and account freeze (issue 29).
  const onKeysChanged = (accountId: number): void => {
    deps.store
      .publishKeysChanged(accountId)
      .catch((e: unknown) =>
        app.log.warn({ err: { message: (e as Error).message } }, "key-change hint failed"),
      );
  };
  // Issue 22: per-request priority_fee / tip and unknown-field warnings, before custody (its plan reads the fees).
  installExecutionFields(app, deps.config.requestFees, kinds);
  // Issue 19: scopes, wallet binding, policies and the activity log around every authenticated request.
  // Every route sees the store through the outcome hook, so each recorded execution outcome is counted.
  const observed = observeOutcomes(deps.store, (kind, status) => metrics.countExecution(kind, status));
  // Each kind's compute-unit budget, by its record's kind (its descriptor's `budget`).
  const budgets = new Map(kinds.map((k) => [k.kind, k.budget]));
  // A request without a key context (public routes) gets the one pass-through wrapper, built once.
  const outside = custodyStore(observed, { current: () => undefined });
  // The record-time policy step's figures (policy-step.ts): a kind's compute-unit limit, wallet balances.
  const custodyDeps = {
    clock: deps.clock,
    computeUnitLimit: (kind: NewExecution["kind"]) => computeUnitLimit(deps.config, budgets.get(kind)),
    ...(deps.chain !== undefined ? { balanceOf: balanceReader(deps.chain) } : {}),
  };
  installCustody(app, {
    ...deps,
    ...custodyDeps,
    counter: requestCounter,
    // One wrapper per request, bound to its context: the key's wallet binding and the reservation it decided.
    bind: (ctx) => (ctx === null ? outside : custodyStore(observed, { current: () => ctx })),
  });
  installMetrics(app, metrics);
  // Routes hold a store whose custody members refuse: they reach wallets and records through `storeOf(req)`.
  deps = { ...deps, store: requestOnlyStore(observed) };

  app.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  healthRoutes(app, deps);
  setupRoutes(app, deps);
  walletRoutes(app, { ...deps, maxWalletsPerKey: deps.config.hardening.maxWalletsPerKey });
  executionRoutes(app, { ...deps, recordedKinds: recorded });
  // Warm venue state (issue 18): watched mints trade on subscribed state, without a read.
  const warm =
    deps.chain === undefined
      ? undefined
      : startWarmVenues(deps.chain, deps.config.warmState, (e) =>
          app.log.warn({ err: { message: (e as Error).message } }, "warm venue state"),
        );
  if (warm !== undefined) {
    app.addHook("onClose", async () => warm.close());
    // Issue 21: decoded trades on watched mints refresh the warm state ahead of the account notifications.
    if (deps.market?.feed !== undefined) warm.follow(deps.market.feed);
    registerWarmStateMetrics(metrics.registry, deps.chain!.subscriptions, {
      watchedMints: () => warm.venues.list().length,
      hits: () => warm.accounts.hits,
      misses: () => warm.accounts.misses,
      eventRefreshes: () => warm.events.refreshed,
    });
  }
  watchRoutes(app, { warm });
  // Issue 30: every execution kind from its descriptor (one list: src/domain/kinds.ts), checked first.
  registerKinds(app, kinds, {
    ...deps,
    tipMaxLamports: deps.config.requestFees.tipMaxLamports,
    ...(warm !== undefined ? { venues: warm.venues } : {}),
    ...(deps.racing !== undefined ? { racing: deps.racing } : {}),
    // Issue 32: builds in the database (any process may take the send), until a send takes them back signed.
    outsideBuilds: createOutsideBuilds(
      observed,
      () => deps.clock().getTime(),
      (e) => app.log.warn({ err: { message: (e as Error).message } }, "outside build sweep failed"),
    ),
  });
  routeRoutes(app, { ...(deps.racing !== undefined ? { racing: deps.racing } : {}) });
  if (deps.racing !== undefined) registerRouteMetrics(metrics.registry, deps.racing);
  // Issue 31: orders evaluated on every state change of their mints, fired through the trade service.
  await installOrders(app, {
    store: observed,
    chain: deps.chain,
    vault: deps.vault,
    venues: warm?.venues,
    custody: custodyDeps,
    clock: deps.clock,
    fees: deps.config.requestFees,
    relayTipLamports: relayTip(deps.config),
    settings: deps.config.orders,
    maxOpenPerKey: deps.config.orders.maxOpenPerKey,
    // Copy orders follow wallets in the market stream's decoded trades.
    ...(deps.market?.hub !== undefined ? { trades: deps.market.hub } : {}),
    // The stream's fan-out and the event refresh of a change wait while its orders are evaluated and fired.
    givesWay: [
      ...(deps.market?.feed !== undefined ? [deps.market.feed] : []),
      ...(warm !== undefined ? [warm.events] : []),
    ],
    ...(deps.onOrderSettled !== undefined ? { onSettled: deps.onOrderSettled } : {}),
  });
  // Issue 22: quotes read (and warm) the trade's state the same way.
  quoteRoutes(app, { ...deps, ...(warm !== undefined ? { venues: warm.venues } : {}) });
  positionRoutes(app, {
    store: deps.store,
    ...(deps.chain !== undefined ? { chain: deps.chain } : {}),
    ...(warm !== undefined ? { venues: warm.venues } : {}),
  });
  cashbackRoutes(app, deps);
  // Issue 20: execution events.
  eventRoutes(app, { ...deps, streams, recordedKinds: recorded });
  // Issue 22: wallet balances.
  balanceRoutes(app, deps);
  // A wallet with its durable nonce account (raced trades).
  walletDetailRoutes(app, deps);
  keyRoutes(app, { ...deps, maxKeysPerAccount: deps.config.hardening.maxKeysPerAccount, onKeysChanged });
  accountRoutes(app, { ...deps, onKeysChanged });
  activityRoutes(app, deps);
  // Market data stream (issue 21).
  await streamRoutes(app, {
    store: deps.store,
    vault: deps.vault,
    clock: deps.clock,
    hub: deps.market?.hub ?? new MarketHub(),
    limits: deps.market?.limits,
    pingMs: deps.market?.pingMs,
    closeGraceMs: deps.market?.closeGraceMs,
    metrics: deps.market?.metrics ?? createStreamMetrics(metrics.registry),
    registry: streams,
    countAuthFailure,
  });
  webhookRoutes(app, deps);
  // Issue 33: the operator console (static files; it calls the API above with the key the operator enters).
  consoleRoutes(app, { dir: deps.consoleDir });
  return app;
}

/**
 * Declares every request field the hooks set, on the root context before any plugin registers routes
 * (issue 29 finding 17). A plugin's context (swagger-ui's /docs routes) copies the request's declared fields
 * when it is created: a field declared after it is `undefined` there instead of null, and the root's hooks,
 * which run on those routes too, took a missing key for a present one (`activity row not written`).
 */
function declareRequestFields(app: FastifyInstance): void {
  declareAuthFields(app);
  declareExecutionFields(app);
  declareCustodyFields(app);
}
