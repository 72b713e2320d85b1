/** The client's `watch` group: warm venue state (issue 18), watched mints trade on subscribed state, without a read. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `watch` methods of a client on `http`. */
export function watchResource(http: Http) {
  return {
    /** Watches mints; resolves once their subscriptions are live. */
    add: (mints: string[]): Promise<T.WatchResult> =>
      unwrap(http.POST("/v1/watch", { body: { mints }, parseAs: "text" })),
    /** The watched mints, least recently traded first. */
    list: (): Promise<T.WatchResult> => unwrap(http.GET("/v1/watch", { parseAs: "text" })),
    /** Stops watching a mint. */
    remove: (mint: string): Promise<T.UnwatchResult> =>
      unwrap(http.DELETE("/v1/watch/{mint}", { params: { path: { mint } }, parseAs: "text" })),
  };
}
