/** GET /metrics (Prometheus text format, public like /healthz) and the hook timing every request. */
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../../observability/metrics.js";

/** Label of requests no route matched (404s): one value, so scanners cannot grow the label set. */
const UNMATCHED_ROUTE = "unmatched";

/** Times every response into the request histogram and registers GET /metrics (hidden from OpenAPI). */
export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook: nothing is awaited, and an async hook costs a promise on every request.
  app.addHook("onResponse", (req, reply, done) => {
    // The route pattern, never req.url: URLs carry wallet addresses and arbitrary client text.
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
