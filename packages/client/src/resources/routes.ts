/** The client's `routes` group: the landing routes raced trades are sent over, with their figures. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `routes` methods of a client on `http`. */
export function routesResource(http: Http) {
  return {
    /** The configured routes with landing rate, slots to land, errors and tips (1 h and 24 h), and demotion. */
    list: (): Promise<T.RoutesResult> => unwrap(http.GET("/v1/routes", { parseAs: "text" })),
  };
}
