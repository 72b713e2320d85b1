/** The client's `positions` group and `pnl()`: the positions ledger kept from the fills. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `positions` methods of a client on `http`. */
export function positionsResource(http: Http) {
  return {
    /** One page of positions (filters wallet, mint, status; next page with `after` = next_cursor). */
    list: (query: T.PositionsQuery = {}): Promise<T.PositionsPage> =>
      unwrap(http.GET("/v1/positions", { params: { query }, parseAs: "text" })),
    /** One position, valued now (`valuation`: read by default, warm or none). */
    get: (
      wallet: string,
      mint: string,
      query: { valuation?: "warm" | "read" | "none" } = {},
    ): Promise<T.Position> =>
      unwrap(
        http.GET("/v1/positions/{wallet}/{mint}", {
          params: { path: { wallet, mint }, query },
          parseAs: "text",
        }),
      ),
  };
}

/** GET /v1/pnl on `http`: realized and unrealized PnL, fees, tips, volume and trade counts. */
export function pnlCall(http: Http) {
  return (query: T.PnlQuery = {}): Promise<T.PnlReport> =>
    unwrap(http.GET("/v1/pnl", { params: { query }, parseAs: "text" }));
}
