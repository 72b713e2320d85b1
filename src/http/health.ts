/** /healthz (process up) and /readyz (database reachable). */
import type { FastifyInstance } from "fastify";
import type { Store } from "../store/index.js";

/** Registers the health routes. */
export function healthRoutes(app: FastifyInstance, deps: { store: Pick<Store, "ping"> }): void {
  const status = {
    type: "object",
    properties: { status: { type: "string" }, detail: { type: "string" } },
    additionalProperties: false,
  } as const;
  app.get(
    "/healthz",
    { config: { public: true }, schema: { tags: ["health"], response: { 200: status } } },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    { config: { public: true }, schema: { tags: ["health"], response: { 200: status, 503: status } } },
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
