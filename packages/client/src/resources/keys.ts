/**
 * The client's key management (issue 19): `keys` (scoped sub-keys, policies, freeze), `account` (the
 * account-wide stop) and `activity` (the log); these need a key with the `keys` scope.
 */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `keys` methods of a client on `http`. */
export function keysResource(http: Http) {
  return {
    /** Creates a sub-key; its `api_key` is returned only here. */
    create: (input: T.CreateKeyInput): Promise<T.CreatedKey> =>
      unwrap(http.POST("/v1/keys", { body: input, parseAs: "text" })),
    /** The account's keys (no secrets; the root key has `root: true`). */
    list: async (): Promise<T.Key[]> =>
      (await unwrap<{ keys: T.Key[] }>(http.GET("/v1/keys", { parseAs: "text" }))).keys,
    /** Revokes a sub-key at once in every process. */
    revoke: (id: number): Promise<T.Key> =>
      unwrap(http.DELETE("/v1/keys/{id}", { params: { path: { id: String(id) } }, parseAs: "text" })),
    freeze: (id: number): Promise<T.Key> =>
      unwrap(http.POST("/v1/keys/{id}/freeze", { params: { path: { id: String(id) } }, parseAs: "text" })),
    unfreeze: (id: number): Promise<T.Key> =>
      unwrap(http.POST("/v1/keys/{id}/unfreeze", { params: { path: { id: String(id) } }, parseAs: "text" })),
    /** Replaces the key's whole policy (`{}` clears it). */
    setPolicy: (id: number, policy: T.PolicyInput): Promise<T.Key> =>
      unwrap(
        http.PUT("/v1/keys/{id}/policy", {
          params: { path: { id: String(id) } },
          body: policy,
          parseAs: "text",
        }),
      ),
  };
}

/** The `account` methods of a client on `http`: the account-wide stop (root key only). */
export function accountResource(http: Http) {
  return {
    freeze: (): Promise<{ frozen: boolean }> => unwrap(http.POST("/v1/account/freeze", { parseAs: "text" })),
    unfreeze: (): Promise<{ frozen: boolean }> =>
      unwrap(http.POST("/v1/account/unfreeze", { parseAs: "text" })),
  };
}

/** The `activity` methods of a client on `http`. */
export function activityResource(http: Http) {
  return {
    /** The activity log, newest first; pass `after: next_cursor` for the next page. */
    list: (query: T.ActivityQuery = {}): Promise<T.ActivityPage> =>
      unwrap(http.GET("/v1/activity", { params: { query }, parseAs: "text" })),
  };
}
