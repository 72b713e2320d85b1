/** Builds the warm venue state of a service from its chain and configuration, with its idle sweep. */
import type { Chain } from "../../chain/chain.js";
import { WarmAccounts } from "../../chain/warm-accounts.js";
import { VenueState } from "./venue-state.js";

/** The running warm state: the LRU of mints, its account cache (for stats) and its stop function. */
export interface WarmVenues {
  venues: VenueState;
  accounts: WarmAccounts;
  close(): void;
}

/** What the warm state needs of the configuration (config/warm-state.ts parses it). */
export interface WarmVenueSettings {
  watchMints: readonly string[];
  watchedMintsMax: number;
  stateMaxAgeSlots: number;
  watchIdleMs: number;
}

/** How often idle mints are looked for. */
const SWEEP_MS = 30_000;

/**
 * Starts the warm state over the chain's subscriptions (WATCH_MINTS are watched at once, in the background);
 * undefined when the chain has no subscription layer (a test double).
 */
export function startWarmVenues(
  chain: Pick<Chain, "subscriptions" | "backgroundRpc">,
  settings: Readonly<WarmVenueSettings>,
  onError: (e: unknown) => void,
): WarmVenues | undefined {
  if (chain.subscriptions === undefined || chain.backgroundRpc === undefined) return undefined;
  const ref: { venues?: VenueState } = {};
  const accounts = new WarmAccounts({
    subscriptions: chain.subscriptions,
    rpc: chain.backgroundRpc,
    maxAgeSlots: settings.stateMaxAgeSlots,
    onChange: (address, previous, next) => ref.venues?.accountChanged(address, previous, next),
    onError,
  });
  const v = new VenueState({
    accounts,
    maxMints: settings.watchedMintsMax,
    idleMs: settings.watchIdleMs,
    onError,
  });
  ref.venues = v;
  for (const mint of settings.watchMints) v.watch(mint, true).catch(onError);
  const sweep = setInterval(() => v.sweep(), SWEEP_MS);
  sweep.unref();
  return {
    venues: v,
    accounts,
    close: () => {
      clearInterval(sweep);
      v.close();
    },
  };
}
