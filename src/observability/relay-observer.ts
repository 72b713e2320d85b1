/** The relay observer of a running service: per-relay metrics, and a log line per failed relay send. */
import type { RelayObserver } from "../chain/relay-fanout.js";
import type { Metrics } from "./metrics.js";

/** Counts and logs relay outcomes. The log names the relay (a preset name) and the error text, never a URL or key. */
export function relayMetricsObserver(
  metrics: Pick<Metrics, "observeRelayAccept" | "countRelayError">,
  logger: { warn(obj: object, msg: string): void },
): RelayObserver {
  return {
    accepted: (relay, seconds) => metrics.observeRelayAccept(relay, seconds),
    failed(relay, reason, error) {
      metrics.countRelayError(relay, reason);
      logger.warn({ relay, reason, err: { message: (error as Error).message } }, "relay send failed");
    },
  };
}
