/** Builds the warm venue state of a service from its chain and configuration, with its idle sweep. */
import type { GivesWay } from "../../core/turn-yield.js";
import type { Chain } from "../../chain/chain.js";
import { WarmAccounts } from "../../chain/warm-accounts.js";
import type { LaunchEvent } from "../../launch/events/launch-event.js";
import { CreatedMints } from "./created-mints.js";
import { EventRefresh } from "./event-refresh.js";
import { VenueState } from "./venue-state.js";
import { LAUNCH_PROGRAM_ID } from "../../launch/programs.js";

/** A source of decoded launch events (the process's market feed). */
export interface DecodedEventSource extends GivesWay {
  /** Adds a listener; returns its removal. */
  onEvents(listener: (events: readonly LaunchEvent[], tx: { slot: number }) => void): () => void;
}

/** The running warm state: the LRU of mints, its account cache (for stats) and its stop function. */
export interface WarmVenues {
  venues: VenueState;
  accounts: WarmAccounts;
  /** Decoded trade events applied to the warm state (counted for metrics). */
  events: EventRefresh;
  /** Mints seen created lately (a buy of one is built from its events). */
  created: CreatedMints;
  /** Refreshes the warm state from a market feed's decoded trades until closed. */
  follow(source: DecodedEventSource): void;
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
/** A created mint is bought from its events for this many slots after its last one (about a minute). */
const CREATED_MAX_AGE_SLOTS = 150;

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
    // A curve grows on its first October 2026 trade (125/151 -> 166 bytes); its fields are read at any size.
    acceptsGrowth: (previous) => previous.owner.equals(LAUNCH_PROGRAM_ID),
    onError,
  });
  const subs = chain.subscriptions;
  const created = new CreatedMints({
    maxAgeSlots: CREATED_MAX_AGE_SLOTS,
    lastSlot: () => subs.lastSlot(),
    live: () => subs.slotsSinceLastMessage() <= settings.stateMaxAgeSlots,
  });
  const v = new VenueState({
    accounts,
    created,
    maxMints: settings.watchedMintsMax,
    idleMs: settings.watchIdleMs,
    onError,
  });
  ref.venues = v;
  for (const mint of settings.watchMints) v.watch(mint, true).catch(onError);
  const sweep = setInterval(() => v.sweep(), SWEEP_MS);
  sweep.unref();
  const events = new EventRefresh(v, accounts, onError);

  const unfollow: (() => void)[] = [];
  return {
    venues: v,
    accounts,
    events,
    created,
    follow: (source) => {
      unfollow.push(
        source.onEvents((e, tx) => {
          created.apply(e, tx.slot);
          void events.apply(e, tx.slot);
        }),
      );
    },
    close: () => {
      clearInterval(sweep);
      for (const off of unfollow.splice(0)) off();
      v.close();
    },
  };
}
