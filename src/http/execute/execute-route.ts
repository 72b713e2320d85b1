/**
 * The one handler shape of every execute route: the key from the auth hook → the chain (503 while there is
 * none) → the request's store (scoped to its Idempotency-Key) → one domain call with the raw body.
 */
import { type Venue } from "../../core/venues.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Chain } from "../../chain/chain.js";
import { simulate } from "../../chain/simulate.js";
import { withRequestFees } from "../../chain/request-fees.js";
import { badRequest, REQUEST_FEES } from "../../core/errors.js";
import type { RequestFees } from "../../core/fee-fields.js";
import { parseDryRun, type RequestBody } from "../../core/request-fields.js";
import { extend } from "../../core/extend.js";
import { overlay } from "../../core/overlay.js";
import { createDryRun, type DryRun } from "../../domain/execution/dry-run.js";
import { requireChain } from "../../domain/execution/gate.js";
import { checkRoutedVenue } from "../../domain/keys/custody-store.js";
import { hasScope, type Scope } from "../../domain/keys/scopes.js";
import { policyView } from "../../domain/keys/fire-custody.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "../hooks/auth.js";
import { storeOf } from "../hooks/custody.js";
import { requestStore } from "../hooks/idempotency.js";
import type { ExecutionKindEntry } from "../../domain/execution/kind.js";
import { intentOf } from "./execution-fields.js";

/** A domain service's collaborators as a route receives them: the chain is absent when the app has none. */
export type RouteDeps<D extends { chain: unknown }> = Omit<D, "chain"> & { chain?: D["chain"] | Chain };

/** A domain call of an execute route: its collaborators, the caller's API key id and the request body. */
export type DomainCall<D, B> = (deps: D, apiKeyId: number, body: B) => Promise<unknown>;

/** The handler of an execute route that passes the body as sent (the domain checks that it is an object). */
export function executeRoute<D extends { chain: unknown; store: Pick<Store, "insertExecution"> }>(
  deps: RouteDeps<D>,
  call: DomainCall<D, unknown>,
): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return executeHandler(deps, (scoped, apiKeyId, req) => call(scoped, apiKeyId, req.body));
}

/**
 * The handler of an execution kind's route: its run with the intent the body was parsed into once, before the
 * policy step (execution-fields.ts); a body the parser refused answers its 400 here, where the run starts.
 */
export function kindRoute<D extends { chain: unknown; store: Pick<Store, "insertExecution"> }>(
  deps: RouteDeps<D>,
  kind: ExecutionKindEntry,
): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  // The kind's collaborators are the app's: its own run narrows them (descriptors erase their type in the list).
  const run = kind.run as unknown as (d: D, apiKeyId: number, intent: unknown) => Promise<unknown>;
  return executeHandler(deps, (scoped, apiKeyId, req) => run(scoped, apiKeyId, intentOf(req)));
}

/** The shared handler: key, chain, request fees, the request's store, dry run, then `call`. */
function executeHandler<D extends { chain: unknown; store: Pick<Store, "insertExecution"> }>(
  deps: RouteDeps<D>,
  call: (deps: D, apiKeyId: number, req: FastifyRequest) => Promise<unknown>,
): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (req, reply) => {
    const key = requireApiKey(req);
    const dryRun = parseDryRun(req.body);
    const fees = req.requestFees ?? {};
    // The app hands every route the whole chain; domain services only narrow its type.
    const chain = withRequestFees(requireChain(deps.chain) as Chain, fees);
    if (fees.tipLamports !== undefined && chain.relayTip().accounts.length === 0)
      throw badRequest(REQUEST_FEES.tipWithoutTipAccounts);
    // The request's own store: the key's wallet binding and spend reservation apply to it.
    const store = storeOf(req);
    const run = dryRun ? dryRunOf(chain) : undefined;
    // extend, not `{ ...deps, key: … }`: a spread literal's added keys are slow on Node 20 (core/extend.ts).
    const scoped = extend(deps, {
      store: withFeesRecorded(requestStore(req, store), fees),
      chain,
      onRecordError: (e: unknown) =>
        req.log.error({ err: { message: (e as Error).message } }, "execution outcome not recorded"),
      ...(run !== undefined ? { dryRun: run } : {}),
      // Services that route (trade, bundle) check the key's venue rule on the venue they will use.
      checkVenue: (venue: Venue) => checkRoutedVenue(req.custodyContext, venue),
      // Issue 32: what the key may send is known only once an outside build is found (a create needs `create`).
      holdsScope: (scope: Scope) => req.custodyKey !== null && hasScope(req.custodyKey, scope),
      // Issue 29: freeze re-check and worst-case spend caps between the build and the signature.
      ...(req.custodyContext?.guard !== undefined ? { spendGuard: req.custodyContext.guard } : {}),
    }) as unknown as D; // deps with the chain made present, which TypeScript cannot see through Omit
    const answer = await call(scoped, key.id, req);
    const warnings = req.bodyWarnings ?? [];
    const warned = warnings.length > 0 ? { warnings } : {};
    if (run === undefined) return warnings.length > 0 ? { ...(answer as object), ...warned } : answer;
    // The route's response schema describes the executed answer; a dry run's answer is serialized as is.
    reply.serializer((payload: unknown) => JSON.stringify(payload));
    const verdict = req.custodyContext?.verdict ?? run.verdict;
    return {
      dry_run: true,
      policy: policyView(verdict),
      requests: run.requests,
      transactions: run.transactions,
      ...feesAsked(fees),
      ...warned,
    };
  };
}

/** The request's own fee and tip as recorded and shown (integer lamport text); nothing when it set neither. */
function feesAsked(fees: RequestFees): Record<string, string> {
  return {
    ...(fees.priorityFeeLamports !== undefined
      ? { priority_fee_lamports: fees.priorityFeeLamports.toString() }
      : {}),
    ...(fees.tipLamports !== undefined ? { tip_lamports: fees.tipLamports.toString() } : {}),
  };
}

/**
 * The store with the request's own priority fee and tip written into each execution record's request
 * summary, beside the compute-unit price the record keeps (issue 22); every other member is the store's own.
 */
function withFeesRecorded<S extends Pick<Store, "insertExecution">>(store: S, fees: RequestFees): S {
  const asked = feesAsked(fees);
  if (Object.keys(asked).length === 0) return store;
  const insertExecution: S["insertExecution"] = (e) =>
    store.insertExecution({
      ...e,
      request: typeof e.request === "object" && e.request !== null ? { ...e.request, ...asked } : e.request,
    });
  return overlay(store, { insertExecution } as Partial<S>);
}

/** A dry run simulating on the chain's RPC (the record-time policy verdict comes from the spend guard). */
function dryRunOf(chain: Pick<Chain, "rpc">): DryRun {
  return createDryRun({ simulate: (wire) => simulate(chain.rpc, wire) });
}

/** The handler of an execute route whose body is optional: an absent body is the empty object. */
export function executeRouteWithOptionalBody<
  D extends { chain: unknown; store: Pick<Store, "insertExecution"> },
>(
  deps: RouteDeps<D>,
  call: DomainCall<D, RequestBody>,
): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return executeRoute(deps, (d, apiKeyId, body) => call(d, apiKeyId, (body ?? {}) as RequestBody));
}
