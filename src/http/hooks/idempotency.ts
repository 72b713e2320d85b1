/**
 * The Idempotency-Key header on execution routes (routes opt in with `config: { idempotent: true }`): the
 * claim is taken after authentication and body parsing, the first response is stored as it is sent, and the
 * request's execution records carry the key (see src/domain/execution/idempotency.ts for the rules).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  beginIdempotent,
  extendIdempotent,
  finishIdempotent,
  IDEMPOTENCY_LEASE_MS,
  parseIdempotencyKey,
  requestFingerprint,
  type IdempotencyClaim,
  type IdempotencyDeps,
} from "../../domain/execution/idempotency.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "./auth.js";
import { codeOf, ERROR_CATALOG } from "./error-catalog.js";
import { errorSchema } from "../openapi/schemas.js";
import { extend } from "../../core/extend.js";
import { overlay } from "../../core/overlay.js";

/** What a request holding a key tracks until its response is sent. */
interface IdempotencyState {
  key: string;
  claim: IdempotencyClaim;
  /** Executions recorded under the key (each one may have been sent). */
  recorded: number;
  heartbeat: NodeJS.Timeout;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set while an execution request holds its Idempotency-Key. */
    idempotency: IdempotencyState | null;
  }
  interface FastifyContextConfig {
    /** True for execution routes: they honour the Idempotency-Key header. */
    idempotent?: boolean;
  }
}

const HEADER = "idempotency-key";

/** OpenAPI-only header description: the value is checked by parseIdempotencyKey with the service's own text. */
const idempotencyHeaders = {
  type: "object",
  properties: {
    [HEADER]: {
      type: "string",
      description:
        "Optional, 1 to 255 printable ASCII characters, scoped to the API key that sends it (root or sub-key) and kept 24 hours. The same key " +
        "with the same request replays the first response (header Idempotent-Replayed: true) without signing " +
        "or sending again; with a different request: 422; while the first is still running: 409. A request " +
        "refused before anything was signed does not use the key up.",
    },
  },
} as const;

/** The execution store of one request: records carry its Idempotency-Key and are counted. */
export function requestStore<S extends Pick<Store, "insertExecution">>(req: FastifyRequest, store: S): S {
  const state = req.idempotency;
  if (state === null) return store;
  // Typed as the store's own method: a generic S could narrow it further, which the compiler cannot check.
  const own: Pick<Store, "insertExecution"> = {
    async insertExecution(e) {
      const record = await store.insertExecution(extend(e, { idempotencyKey: state.key }));
      state.recorded += 1;
      return record;
    },
  };
  return overlay(store, own as Partial<S>);
}

/** Installs the hooks; call before the routes are registered (the onRoute hook documents the header). */
export function installIdempotency(
  app: FastifyInstance,
  deps: IdempotencyDeps & { onError: (e: unknown) => void },
): void {
  app.decorateRequest("idempotency", null);

  app.addHook("onRoute", (route) => {
    if (route.config?.idempotent !== true || route.schema === undefined) return;
    route.schema = {
      ...route.schema,
      headers: idempotencyHeaders,
      response: { ...(route.schema.response as object), 409: errorSchema, 422: errorSchema },
    };
  });

  // Callback hooks: on the requests that send no Idempotency-Key (most) nothing is awaited, and an async hook
  // costs a promise and a microtask turn on every request. A holder's work still runs as a promise, whose end
  // calls `done` as the async hook's resolution did.
  app.addHook("preHandler", (req, reply, done) => {
    if (req.routeOptions.config.idempotent !== true || req.headers[HEADER] === undefined) return done();
    claimKey(req, reply).then(() => done(), done);
  });

  // A replay answers here and returns the reply: Fastify's reply is a thenable settled when the response has
  // been written, so `done` runs only then (and the handler is skipped), as with the async hook before.
  const claimKey = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const key = parseIdempotencyKey(req.headers[HEADER]!);
    const apiKey = requireApiKey(req);
    const fingerprint = requestFingerprint(req.method, req.routeOptions.url ?? req.url, req.body);
    // Per sending key (issue 29): another key's record is neither replayed to it nor reported as a 422.
    const keyId = req.custodyKey?.id ?? apiKey.id;
    const start = await beginIdempotent(deps, apiKey.id, keyId, key, fingerprint);
    if (start.kind === "replay") {
      const { status, contentType, body } = start.response;
      return reply
        .code(status)
        .header("content-type", contentType)
        .header("idempotent-replayed", "true")
        .send(withCode(status, body));
    }
    const { claim } = start;
    const heartbeat = setInterval(() => {
      extendIdempotent(deps, claim).catch(deps.onError);
    }, IDEMPOTENCY_LEASE_MS / 3);
    heartbeat.unref();
    req.idempotency = { key, claim, recorded: 0, heartbeat };
    return undefined;
  };

  app.addHook("onSend", (req, reply, payload, done) => {
    const state = req.idempotency;
    if (state === null) return done(null, payload);
    req.idempotency = null;
    clearInterval(state.heartbeat);
    // Errors reach Fastify through `done`, as an async hook's rejection did (the runner keeps the payload).
    storeResponse(reply, state, payload).then(
      () => done(null, payload),
      (e: unknown) => done(e as Error),
    );
  });

  const storeResponse = async (
    reply: FastifyReply,
    state: IdempotencyState,
    payload: unknown,
  ): Promise<void> => {
    const body =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : "";
    const contentType = String(reply.getHeader("content-type") ?? "application/json; charset=utf-8");
    // A failed write leaves the claim to lapse; a later repeat then finds the execution and answers 409.
    await finishIdempotent(
      deps,
      state.claim,
      { status: reply.statusCode, contentType, body },
      state.recorded > 0,
    ).catch(deps.onError);
  };

  // A request that never reached onSend (socket gone mid-way) must not keep extending its claim.
  app.addHook("onResponse", (req, _reply, done) => {
    if (req.idempotency !== null) clearInterval(req.idempotency.heartbeat);
    done();
  });
}

/**
 * Issue 30: a stored error body without `code` (stored before codes existed, or written below the HTTP layer,
 * like the interrupted-request answer) gets its code on replay; anything else is replayed as stored.
 */
function withCode(status: number, body: string): string {
  if (status < 400 || !body.startsWith("{")) return body;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.detail !== "string" || typeof parsed.code === "string") return body;
    return JSON.stringify({
      ...parsed,
      code: codeOf(ERROR_CATALOG, { status, detail: parsed.detail, extra: parsed }),
    });
  } catch {
    return body;
  }
}
