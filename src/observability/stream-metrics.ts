/**
 * Metrics of the market stream (GET /v1/stream) on the app's registry: connections, subscriptions,
 * messages delivered, connections closed by the server (closed reason set) and events decoded by type.
 */
import type { Registry } from "prom-client";
import { metricsOn } from "./registered.js";

/** What the stream reports (the shapes of the market feed's and stream sessions' observers). */
export interface StreamMetrics {
  delivered(): void;
  closed(reason: "unauthorized" | "slow_reader" | "forbidden" | "limited"): void;
  subscriptionsChanged(delta: number): void;
  decoded(type: string): void;
  unresolvedPool(): void;
  connectionOpened(): void;
  connectionClosed(): void;
}

/** Registers the stream metrics on `registry`. */
export function createStreamMetrics(registry: Registry): StreamMetrics {
  const { counter, gauge } = metricsOn(registry);
  const connections = gauge("lasertrade_stream_connections", "Open GET /v1/stream WebSocket connections.");
  const subscriptions = gauge(
    "lasertrade_stream_subscriptions",
    "Stream subscriptions held (new-token and migration count one each; every mint or wallet key one).",
  );
  const delivered = counter(
    "lasertrade_stream_messages_delivered_total",
    "Event messages handed to stream connections.",
  );
  const closed = counter(
    "lasertrade_stream_closed_total",
    "Stream connections closed by the server, by reason (unauthorized, slow_reader, forbidden, limited).",
    ["reason"],
  );
  const events = counter(
    "lasertrade_stream_events_total",
    "Market events decoded from the launch programs' logs, by message type.",
    ["type"],
  );
  const unresolved = counter(
    "lasertrade_stream_unresolved_pools_total",
    "Swap trades dropped because their pool could not be read.",
  );
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
