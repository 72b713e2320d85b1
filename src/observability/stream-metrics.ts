/**
 * Metrics of the market stream (GET /v1/stream) on the app's registry: connections, subscriptions,
 * messages delivered, connections closed by the server (closed reason set) and events decoded by type.
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** What the stream reports (the shapes of the market feed's and stream sessions' observers). */
export interface StreamMetrics {
  delivered(): void;
  closed(reason: "unauthorized" | "slow_reader"): void;
  subscriptionsChanged(delta: number): void;
  decoded(type: string): void;
  unresolvedPool(): void;
  connectionOpened(): void;
  connectionClosed(): void;
}

/** Registers the stream metrics on `registry`. */
export function createStreamMetrics(registry: Registry): StreamMetrics {
  const connections = new Gauge({
    name: "lasertrade_stream_connections",
    help: "Open GET /v1/stream WebSocket connections.",
    registers: [registry],
  });
  const subscriptions = new Gauge({
    name: "lasertrade_stream_subscriptions",
    help: "Stream subscriptions held (new-token and migration count one each; every mint or wallet key one).",
    registers: [registry],
  });
  const delivered = new Counter({
    name: "lasertrade_stream_messages_delivered_total",
    help: "Event messages handed to stream connections.",
    registers: [registry],
  });
  const closed = new Counter({
    name: "lasertrade_stream_closed_total",
    help: "Stream connections closed by the server, by reason (unauthorized, slow_reader).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const events = new Counter({
    name: "lasertrade_stream_events_total",
    help: "Market events decoded from the launch programs' logs, by message type.",
    labelNames: ["type"] as const,
    registers: [registry],
  });
  const unresolved = new Counter({
    name: "lasertrade_stream_unresolved_pools_total",
    help: "Swap trades dropped because their pool could not be read.",
    registers: [registry],
  });
  return {
    delivered: () => delivered.inc(),
    closed: (reason) => closed.inc({ reason }),
    subscriptionsChanged: (delta) => subscriptions.inc(delta),
    decoded: (type) => events.inc({ type }),
    unresolvedPool: () => unresolved.inc(),
    connectionOpened: () => connections.inc(),
    connectionClosed: () => connections.dec(),
  };
}
