/** The client's execution records: `executions` (list, get, by signature), `dryRun`, and waiting for a final status. */
import { exec, unwrap, type Http, type RawResult } from "../call.js";
import type * as T from "../types.js";

const FINAL_STATUSES = new Set(["confirmed", "finalized", "failed", "expired"]);

/** The `executions` methods of a client on `http`. */
export function executionsResource(http: Http) {
  const executions = {
    /** The key's executions, newest first (page with `offset` = the previous page's next_offset). */
    list: (query: T.ExecutionsQuery = {}): Promise<T.ExecutionsPage> =>
      unwrap(http.GET("/v1/executions", { params: { query }, parseAs: "text" })),
    /** One execution by its id (`execution_id` of an execution answer); `wait` seconds (0–60) for a final status. */
    get: (id: string, options: { wait?: number } = {}): Promise<T.Execution> =>
      unwrap(
        http.GET("/v1/executions/{id}", {
          params: { path: { id }, query: options.wait !== undefined ? { wait: options.wait } : {} },
          parseAs: "text",
        }),
      ),
    /** The execution that carries a transaction signature (any leg of a bundle), or undefined. */
    bySignature: async (signature: string): Promise<T.Execution | undefined> => {
      const page = await executions.list({ signature, limit: 1 });
      return page.executions[0];
    },
  };
  return executions;
}

// Issue 19: any execution request as a dry run (the body as the endpoint takes it, amounts as text).
/** The `dryRun` methods of a client on `http`. */
export function dryRunResource(http: Http) {
  return {
    /** Checks, quotes and simulates `body` at `path` with `dry_run: true`: nothing is sent or recorded. */
    run: <P extends T.ExecutionPath>(
      path: P,
      body: T.Body<P, "post">,
      options: T.CallOptions = {},
    ): Promise<T.DryRunResult> =>
      unwrap(
        // The path is one of the execute routes, whose bodies the generated types know; openapi-fetch cannot
        // narrow a generic path, so the call is made through its common shape.
        (http.POST as (p: string, init: unknown) => Promise<RawResult>)(path, {
          body: { ...(body as object), dry_run: true },
          ...exec(options),
        }),
      ),
  };
}

/**
 * Waits until the execution is final (confirmed, finalized, failed, expired) or `timeoutMs` passes (default
 * 120 s), using the server's long-poll; returns the record as it then is.
 */
export async function waitForFinal(
  http: Http,
  executionId: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T.Execution> {
  const until = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const wait = Math.max(0, Math.min(60, Math.ceil((until - Date.now()) / 1000)));
    const record = await unwrap<T.Execution>(
      http.GET("/v1/executions/{id}", {
        params: { path: { id: executionId }, query: { wait } },
        parseAs: "text",
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      }),
    );
    if (FINAL_STATUSES.has(record.status) || Date.now() >= until || options.signal?.aborted === true)
      return record;
  }
}
