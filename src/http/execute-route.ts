/**
 * The one handler shape of every execute route: the key from the auth hook → the chain (503 while there is
 * none) → the request's store (scoped to its Idempotency-Key) → one domain call with the raw body.
 */
import type { FastifyRequest } from "fastify";
import type { Chain } from "../chain/chain.js";
import type { RequestBody } from "../core/request-fields.js";
import { requireChain } from "../domain/execution/gate.js";
import type { Store } from "../store/index.js";
import { requireApiKey } from "./auth.js";
import { requestStore } from "./idempotency.js";

/** A domain service's collaborators as a route receives them: the chain is absent when the app has none. */
export type RouteDeps<D extends { chain: unknown }> = Omit<D, "chain"> & { chain?: D["chain"] | Chain };

/** A domain call of an execute route: its collaborators, the caller's API key id and the request body. */
export type DomainCall<D, B> = (deps: D, apiKeyId: number, body: B) => Promise<unknown>;

/** The handler of an execute route that passes the body as sent (the domain checks that it is an object). */
export function executeRoute<D extends { chain: unknown; store: Pick<Store, "insertExecution"> }>(
  deps: RouteDeps<D>,
  call: DomainCall<D, unknown>,
): (req: FastifyRequest) => Promise<unknown> {
  return async (req) => {
    const key = requireApiKey(req);
    const chain = requireChain(deps.chain);
    const scoped = {
      ...deps,
      store: requestStore(req, deps.store),
      chain,
      onRecordError: (e: unknown) =>
        req.log.error({ err: { message: (e as Error).message } }, "execution outcome not recorded"),
    } as unknown as D; // the spread is D with the chain made present, which TypeScript cannot see through Omit
    return call(scoped, key.id, req.body);
  };
}

/** The handler of an execute route whose body is optional: an absent body is the empty object. */
export function executeRouteWithOptionalBody<
  D extends { chain: unknown; store: Pick<Store, "insertExecution"> },
>(deps: RouteDeps<D>, call: DomainCall<D, RequestBody>): (req: FastifyRequest) => Promise<unknown> {
  return executeRoute(deps, (d, apiKeyId, body) => call(d, apiKeyId, (body ?? {}) as RequestBody));
}
