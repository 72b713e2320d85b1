/** The client's `orders` group: orders the service runs itself (limit, take-profit, stop-loss, trailing stop, bracket). */
import { exec, unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `orders` methods of a client on `http`. */
export function ordersResource(http: Http) {
  return {
    /**
     * Places an order (or, with `dry_run: true`, answers what it would do now). Sent with an Idempotency-Key
     * (given, or a new one per call) so a retried call places the order once.
     */
    create: (body: T.OrderInput, options: T.CallOptions = {}): Promise<T.Order> =>
      unwrap(http.POST("/v1/orders", { body, ...exec(options) })),
    /** This account's orders, newest first; filter by state or mint. */
    list: (query: T.OrderListQuery = {}): Promise<T.OrderList> =>
      unwrap(http.GET("/v1/orders", { params: { query }, parseAs: "text" })),
    /** One order with its state and executions. */
    get: (id: string): Promise<T.Order> =>
      unwrap(http.GET("/v1/orders/{id}", { params: { path: { id } }, parseAs: "text" })),
    /**
     * A snipe or copy order's record per trigger (each followed trade, each token), newest first: pass
     * `next_cursor` as `after` for the next page.
     */
    fires: (id: string, query: T.OrderFiresQuery = {}): Promise<T.OrderFiresPage> =>
      unwrap(http.GET("/v1/orders/{id}/fires", { params: { path: { id }, query }, parseAs: "text" })),
    /** Cancels an open order (409 naming its state otherwise). */
    cancel: (id: string): Promise<T.Order> =>
      unwrap(http.DELETE("/v1/orders/{id}", { params: { path: { id } }, parseAs: "text" })),
  };
}
