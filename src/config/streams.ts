/** Settings of the open streams, GET /v1/stream and GET /v1/events (issue 29): connection caps per key and per IP. */
import { int } from "./parse.js";

/** The streams part of the configuration. */
export interface StreamSettings {
  /** STREAM_MAX_CONNECTIONS_PER_KEY (default 8): open WebSocket + SSE streams one API key may hold; 0 = no cap. */
  readonly maxConnectionsPerKey: number;
  /**
   * STREAM_MAX_CONNECTIONS_PER_IP (default 32): open streams one client IP may hold, WebSockets still waiting
   * for their auth message included; 0 = no cap.
   */
  readonly maxConnectionsPerIp: number;
}

/** Parses the stream variables (each in docs/configuration.md). */
export function loadStreamSettings(env: NodeJS.ProcessEnv): StreamSettings {
  return Object.freeze({
    maxConnectionsPerKey: int(env, "STREAM_MAX_CONNECTIONS_PER_KEY", 8, 0, 100_000),
    maxConnectionsPerIp: int(env, "STREAM_MAX_CONNECTIONS_PER_IP", 32, 0, 100_000),
  });
}
