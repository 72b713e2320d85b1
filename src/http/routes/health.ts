/** /healthz (process up) and /readyz (database reachable). */
import type { FastifyInstance } from "fastify";
import type { Store } from "../../store/index.js";
import { ref } from "../openapi/schemas.js";

/** The answer of /healthz and /readyz (the `HealthStatus` component). */
export const healthComponent = {
  $id: "HealthStatus",
  type: "object",
  description: "Whether the service is up (healthz) or ready (readyz)",
  properties: {
    status: { type: "string", description: "ok (healthz), ready or unavailable (readyz)" },
    detail: { type: "string", description: "why it is unavailable" },
  },
  additionalProperties: false,
} as const;

/** Registers the health routes. */
export function healthRoutes(app: FastifyInstance, deps: { store: Pick<Store, "ping"> }): void {
  const status = ref("HealthStatus");
  app.get(
    "/healthz",
    {
      config: { public: true },
      schema: { tags: ["health"], summary: "Liveness: the process is up", response: { 200: status } },
    },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      config: { public: true },
      schema: {
        tags: ["health"],
        summary: "Readiness: the database answers (503 while it does not)",
        response: { 200: status, 503: status },
      },
    },
    async (req, reply) => {
      try {
        await deps.store.ping();
        return { status: "ready" };
      } catch (e) {
        req.log.warn({ err: { message: (e as Error).message } }, "readiness check failed");
        return reply.status(503).send({ status: "unavailable", detail: "database unreachable" });
      }
    },
  );
}
