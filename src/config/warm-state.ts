/** The warm venue state part of the configuration (issue 18): PubSub endpoint, watched mints, freshness bound. */
import { addressList, int, url } from "./parse.js";

/** The resolved warm-state settings. */
export interface WarmStateSettings {
  /** RPC_WS_URL; undefined = derived from RPC_URL (http → ws, https → wss, same host and path). */
  rpcWsUrl: string | undefined;
  /** WATCH_MINTS: mints subscribed at start (comma-separated). */
  watchMints: readonly string[];
  /** WATCHED_MINTS_MAX: LRU bound on watched mints (0 turns the warm path off: every trade reads). */
  watchedMintsMax: number;
  /** STATE_MAX_AGE_SLOTS: cached state older than this many slots is not used (the trade reads). */
  stateMaxAgeSlots: number;
  /** WATCH_IDLE_MS: a mint no trade used for this long is unsubscribed (explicit watches stay). */
  watchIdleMs: number;
}

/** Parses RPC_WS_URL, WATCH_MINTS, WATCHED_MINTS_MAX, STATE_MAX_AGE_SLOTS and WATCH_IDLE_MS. */
export function loadWarmStateSettings(env: NodeJS.ProcessEnv): WarmStateSettings {
  return {
    rpcWsUrl: url(env, "RPC_WS_URL", ["ws:", "wss:"]),
    watchMints: Object.freeze(addressList(env, "WATCH_MINTS") ?? []),
    watchedMintsMax: int(env, "WATCHED_MINTS_MAX", 256, 0, 100_000),
    stateMaxAgeSlots: int(env, "STATE_MAX_AGE_SLOTS", 2, 0, 1_000),
    watchIdleMs: int(env, "WATCH_IDLE_MS", 600_000, 1_000, 86_400_000),
  };
}
