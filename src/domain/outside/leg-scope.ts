/** Which outside builds a key may send (issue 32): a create or a bundle needs `create`, as on the managed path. */
import { badRequest } from "../../core/errors.js";
import { CUSTODY } from "../keys/texts.js";
import { refusal, type Scope } from "../keys/scopes.js";
import type { OutsideBuild } from "./builds.js";
import { OUTSIDE_LEGS } from "./leg-texts.js";

/** Whether the request's key holds `scope`. */
export type ScopeCheck = (scope: Scope) => boolean;

/**
 * Refuses builds the key may not send: a create or a bundle records a create-scoped execution (as
 * POST /v1/laser/create and /v1/laser/bundle need `create`); a bundle leg sent alone is not a bundle.
 */
export function refuseUnscopedLegs(
  deps: { holdsScope?: ScopeCheck },
  builds: readonly OutsideBuild[],
  asBundle = false,
): void {
  for (const b of builds) {
    if (b.kind === undefined) continue;
    if (b.kind === "bundle" && !asBundle) throw badRequest(OUTSIDE_LEGS.bundleNeedsTransactions);
    // Deny by default: without the key's scopes at hand, no create is sent.
    if (deps.holdsScope === undefined || !deps.holdsScope("create"))
      throw refusal(CUSTODY.missingScope("create"), "scope");
  }
}
