/** GET /v1/executions: the key's execution history, paged, newest first; GET /v1/executions/{id}, with ?wait=. */
import type { FastifyInstance } from "fastify";
import {
  EXECUTION_STATUSES,
  executionView,
  listHistory,
  parseHistoryQuery,
} from "../../domain/execution/history.js";
import { MAX_WAIT_SECONDS, parseWaitSeconds, waitForExecution } from "../../domain/events/wait.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, authErrors, errorSchema, ref, closedObject } from "../openapi/schemas.js";

// Free-form JSON written by the service itself (request summaries, responses, errors): never secrets.
const anyJson = (description: string) => ({ description }) as const;

/** One execution record (the `Execution` component); `kinds`: the words executions are recorded under. */
export const executionComponentOf = (kinds: readonly string[]) =>
  closedObject(
    {
      id: { type: "string", description: "the execution id (GET /v1/executions/{id})" },
      kind: { type: "string", enum: [...kinds], description: "which endpoint ran it" },
      wallet: { type: "string", description: "the primary wallet (trader, creator, source or destination)" },
      wallets: { type: "array", items: { type: "string" }, description: "the managed wallets involved" },
      signatures: {
        type: "array",
        items: { type: "string" },
        description: "transaction signatures, in send order (one per bundle leg)",
      },
      bundle_id: { type: ["string", "null"], description: "the relay's bundle id; null outside bundles" },
      status: {
        type: "string",
        enum: [...EXECUTION_STATUSES],
        description:
          "pending: recorded, outcome not known yet; submitted: sent without a verdict; timeout: the wait ended first " +
          "(these three are open: reconciliation moves them to a final status); confirmed; finalized; failed; " +
          "expired: the blockhash expired without the transaction landing",
      },
      confirmation_status: {
        type: ["string", "null"],
        description: "processed, confirmed or finalized as last seen on chain; null when not seen",
      },
      request: anyJson("summary of the request body as the service understood it"),
      response: anyJson("the answer the endpoint gave, once it gave one"),
      error: anyJson("why it failed (a detail and what is known), when it failed"),
      timings: anyJson("milliseconds per phase, when measured"),
      idempotency_key: {
        type: ["string", "null"],
        description: "the Idempotency-Key of the request that recorded it, if it had one",
      },
      compute_unit_price_micro_lamports: {
        type: ["string", "null"],
        description:
          "priority fee the transaction carried, micro-lamports per compute unit (highest of a bundle's legs); null on older records",
      },
      created_at: { type: "string", description: "RFC 3339 UTC with Z: when it was recorded" },
      updated_at: { type: "string", description: "RFC 3339 UTC with Z: its last status change" },
    },
    {
      $id: "Execution",
      description: "One recorded execution of this key: what was asked, what was sent and how it ended",
      required: ["id", "kind", "wallet", "signatures", "status", "created_at"],
    },
  );

/** Registers GET /v1/executions. */
export function executionRoutes(
  app: FastifyInstance,
  deps: {
    store: Pick<Store, "listExecutions" | "findExecution" | "onEventWake">;
    /** The words executions are recorded under (the served kinds' recordedKinds). */
    recordedKinds: readonly string[];
  },
): void {
  app.get(
    "/v1/executions",
    {
      config: { scope: "read" },
      schema: {
        tags: ["executions"],
        security: apiKeySecurity,
        summary: "List this API key's executions, newest first",
        querystring: {
          type: "object",
          properties: {
            limit: { description: "page size, 1 to 200 (default 50)" },
            offset: { description: "rows to skip (default 0); use next_offset of the previous page" },
            after: {
              type: "string",
              description:
                "cursor paging: next_cursor of the previous page (stable while new executions arrive)",
            },
            wallet: { description: "only executions whose primary wallet is this public key" },
            kind: { description: `only this kind: ${deps.recordedKinds.join(", ")}` },
            status: { description: `only this status: ${EXECUTION_STATUSES.join(", ")}` },
            signature: {
              description: "only the execution carrying this transaction signature (any leg of a bundle)",
            },
          },
        },
        response: {
          200: closedObject({
            executions: { type: "array", items: ref("Execution"), description: "newest first" },
            limit: { type: "integer", description: "the page size used" },
            offset: { type: "integer", description: "rows skipped" },
            next_offset: {
              type: ["integer", "null"],
              description: "pass as ?offset= for the next page; null on the last page",
            },
            next_cursor: {
              type: ["string", "null"],
              description: "pass as ?after= for the next (older) page; null on the last page",
            },
          }),
          400: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const key = requireApiKey(req);
      const q = parseHistoryQuery(req.query as Record<string, unknown>, deps.recordedKinds);
      const only = req.custodyKey?.wallets;
      return listHistory(deps.store, key.id, only != null ? { ...q, onlyWallets: only } : q);
    },
  );

  // Issue 20: one execution, optionally waiting until it is final (long-poll). Waits end when the app closes.
  const closing = new AbortController();
  app.addHook("preClose", (done) => {
    closing.abort();
    done();
  });
  app.get(
    "/v1/executions/:id",
    {
      schema: {
        tags: ["executions"],
        security: apiKeySecurity,
        summary: "One execution of this API key; with ?wait= returns as soon as it is final or the wait ends",
        params: {
          type: "object",
          properties: { id: { type: "string", description: "the execution id" } },
          required: ["id"],
        },
        querystring: {
          type: "object",
          properties: {
            wait: {
              description: `seconds to wait for a final status (confirmed, finalized, failed, expired), 0 to ${MAX_WAIT_SECONDS}; the current record is returned when the wait ends`,
            },
          },
        },
        response: {
          200: ref("Execution"),
          400: errorSchema,
          404: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const key = requireApiKey(req);
      const { id } = req.params as { id: string };
      const waitMs = parseWaitSeconds((req.query as Record<string, unknown>).wait) * 1000;
      // The caller going away ends the wait (and its subscription) at once.
      const gone = new AbortController();
      const onClose = (): void => gone.abort();
      req.raw.socket?.once("close", onClose);
      try {
        const signal = AbortSignal.any([gone.signal, closing.signal]);
        const only = req.custodyKey?.wallets ?? undefined;
        return executionView(await waitForExecution(deps.store, key.id, id, waitMs, signal, only));
      } finally {
        req.raw.socket?.off("close", onClose);
      }
    },
  );
}
