/** POST /v1/account/freeze and /unfreeze: the root key stops (and restarts) every key of the account at once. */
import type { FastifyInstance } from "fastify";
import { setAccountFrozen, type KeysDeps } from "../../domain/keys/keys.js";
import { requireApiKey } from "../hooks/auth.js";
import { apiKeySecurity, authErrors, ref } from "../openapi/schemas.js";

/** Registers the account freeze routes (root key only). */
export function accountRoutes(app: FastifyInstance, deps: Pick<KeysDeps, "store" | "onKeysChanged">): void {
  for (const action of ["freeze", "unfreeze"] as const) {
    app.post(
      `/v1/account/${action}`,
      {
        // The root key may unfreeze the account it froze; every other key stays refused while it is frozen.
        config: { scope: "root", ...(action === "unfreeze" ? { allowFrozenAccount: true } : {}) },
        schema: {
          tags: ["keys"],
          security: apiKeySecurity,
          summary:
            action === "freeze"
              ? "Freeze the whole account: every write of every key (root included) is refused until unfrozen; reads stay open"
              : "Unfreeze the account",
          response: {
            200: {
              type: "object",
              properties: {
                frozen: { type: "boolean", description: "the account's state now: true while frozen" },
              },
              required: ["frozen"],
              additionalProperties: false,
            },
            403: ref("Refusal"),
            ...authErrors,
          },
        },
      },
      async (req) => setAccountFrozen(deps, requireApiKey(req).id, action === "freeze"),
    );
  }
}
