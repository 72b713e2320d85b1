/** Prometheus metrics of the chain subscriptions and the warm venue state (issue 18), read at scrape time. */
import type { Registry } from "prom-client";
import type { ChainSubscriptions } from "../chain/subscriptions/index.js";
import { metricsOn } from "./registered.js";

/** The warm venue state's figures, read at scrape time. */
export interface WarmStateFigures {
  watchedMints(): number;
  hits(): number;
  misses(): number;
  /** Trade events (market feed) that refreshed warm state ahead of its notification. */
  eventRefreshes(): number;
}

/** Registers the gauges; each reads the live figures when /metrics is scraped. */
export function registerWarmStateMetrics(
  registry: Registry,
  subscriptions: Pick<ChainSubscriptions, "stats">,
  warm: WarmStateFigures,
): void {
  const { gauge } = metricsOn(registry);
  gauge("lasertrade_chain_subscriptions_connected", "1 while the PubSub WebSocket is open.", () =>
    subscriptions.stats().connected ? 1 : 0,
  );
  gauge(
    "lasertrade_chain_subscriptions_open",
    "Node-side subscriptions confirmed on the open connection.",
    () => subscriptions.stats().live,
  );
  gauge(
    "lasertrade_chain_subscription_updates_total",
    "Notifications received since start (rate() = updates/s).",
    () => subscriptions.stats().updates,
  );
  gauge(
    "lasertrade_chain_subscription_reconnects_total",
    "PubSub connections re-opened after a loss.",
    () => subscriptions.stats().reconnects,
  );
  gauge(
    "lasertrade_chain_subscription_staleness_seconds",
    "Time since the PubSub connection last delivered anything (-1 before the first message).",
    () => {
      const age = subscriptions.stats().lastMessageAgeMs;
      return age === null ? -1 : age / 1000;
    },
  );
  gauge("lasertrade_warm_mints", "Mints whose venue state is watched.", () => warm.watchedMints());
  gauge("lasertrade_warm_state_hits_total", "Trades quoted on warm state (no read).", () => warm.hits());
  gauge("lasertrade_warm_state_misses_total", "Trades on a watched mint that had to read.", () =>
    warm.misses(),
  );
  gauge(
    "lasertrade_warm_state_event_refresh_total",
    "Decoded trade events that refreshed warm venue state ahead of its account notification.",
    () => warm.eventRefreshes(),
  );
}
