/**
 * The localnet's public surface: how the service (sandbox mode), tests and benchmarks start it and
 * drive it. `startLocalnet` lives in `localnet/index.ts`; these are its types.
 */
import type { RelayLogEntry } from "./server/relay-log.js";
import type { ProgramGeneration } from "./programs/generation.js";

import type { RouteInfo } from "./server/landing-routes.js";

export type { RelayLogEntry, ProgramGeneration, RouteInfo };

/** Options of `startLocalnet`. Every field has a default. */
export interface LocalnetOptions {
  /** TCP port for RPC, relay, bundle relay and admin routes; 0 picks a free port. Default 8899. */
  port?: number;
  /** Listen address. Default 127.0.0.1. */
  host?: string;
  /** Slot length in ms; 0 disables the clock (slots advance only via admin.advanceSlots). Default 400. */
  slotMs?: number;
  /** Minimum submission-relay tip in lamports. Default 200_000. */
  relayTipLamports?: bigint;
  /** Submission-relay tip accounts (base58). Default: generated addresses. */
  relayTipAccounts?: string[];
  /** Bundle-relay tip accounts (base58). Default: generated addresses. */
  bundleTipAccounts?: string[];
  /** Genesis switch: emulate the earlier program in which create_v2 could create cashback coins. */
  cashbackCreation?: boolean;
  /**
   * Which generation of the launch programs to emulate (LOCALNET_PROGRAMS): "2026-10", the live one
   * (v3 curve trades, swap v2 trades, fee sweeps, synthetic migration), or "2026-09", before that
   * upgrade. Legacy and v2 instructions behave the same on both. Default "2026-10".
   */
  programs?: ProgramGeneration;
}

/** Faults switchable at run time (POST /admin/faults or admin.setFaults). Unset fields are off. */
export interface FaultSettings {
  /**
   * Added latency per call, ms, as a network round trip: the call is handled half-way (a send executes, or
   * with `answerOnAcceptance` is accepted and executes right after) and answered at the end.
   */
  latencyMs?: number;
  /** Share of calls (0..1) answered with `errorKind` instead of being served. */
  errorRate?: number;
  /** Answer the next N matching calls with `errorKind` (deterministic alternative to errorRate). */
  errorCount?: number;
  /** What an injected error looks like. Default "http429". */
  errorKind?: "http429" | "http500" | "rpcError";
  /** Several kinds: each injected error picks one of them at random (overrides `errorKind`). */
  errorKinds?: ("http429" | "http500" | "rpcError")[];
  /** Restrict latency/errors/hangs to these JSON-RPC methods (default: every method). */
  methods?: string[];
  /** Restrict latency/errors/hangs to these endpoints (default: all). */
  endpoints?: ("rpc" | "relay" | "relay2" | "bundle" | "route")[];
  /** Sends are accepted (signature returned) but never applied. */
  neverLand?: boolean;
  /**
   * A send (the relays; RPC sendTransaction) is answered once checked (signature, blockhash, not already
   * processed) and executes right after its answer, in arrival order, as a real relay or RPC node answers on
   * acceptance; a send with preflight still simulates first (on the state the sends accepted before it
   * left), and a failing simulation is still its answer. Off (default): a send executes before its answer,
   * so its effects are visible when the answer arrives, which the tests rely on.
   */
  answerOnAcceptance?: boolean;
  /** Sends are applied only after this many slots. */
  landAfterSlots?: number;
  /** Bundles are accepted but stay Invalid. */
  bundleInvalid?: boolean;
  /**
   * Bundles are accepted, then reported Invalid (getInflightBundleStatuses) and absent from
   * getBundleStatuses for this many slots, as while propagating; then they land (after
   * `landAfterSlots` instead, when that is longer: Pending in between).
   */
  bundleInvalidSlots?: number;
  /** Bundles are accepted and reported Failed (nothing applied). */
  bundleFailed?: boolean;
  /**
   * Matching calls hang this long (ms) before they are handled, to exceed a client timeout: a hung send
   * lands late, after the client has given up on it.
   */
  hangMs?: number;
}

/** Operator API of a running localnet (also served as HTTP routes under /admin/). */
export interface LocalnetAdmin {
  setFaults(faults: FaultSettings): void;
  /** Clears the faults of every endpoint, the second relay's included. */
  clearFaults(): void;
  /** The second relay's own fault switches (latency, errors, hang); the main switches never reach it. */
  setRelay2Faults(faults: FaultSettings): void;
  /**
   * Rewrites the launch Global account as a program upgrade that changed its layout would: "altered" inserts an
   * 8-byte field after the discriminator (every later field moves); "original" restores the genesis bytes.
   */
  setLaunchGlobalLayout(layout: "original" | "altered"): void;
  /** Calls per "<endpoint>.<method>" (e.g. "rpc.getMultipleAccounts", "relay.sendTransaction") since the last reset. */
  stats(): Record<string, number>;
  resetStats(): void;
  /** Every signature the submission relay received since the last reset, in arrival order. */
  relaySignatures(): RelayLogEntry[];
  resetRelaySignatures(): void;
  /** Advances the clock by n slots (lands delayed sends that are due). */
  advanceSlots(n: number): void;
  /** The landing routes (/route/<name>) with their behaviour and counters. */
  routes(): RouteInfo[];
  /**
   * Changes a landing route's behaviour: `drop_rate` (0..1), `slot_delay` ([min, max] slots), `latency_ms`,
   * `min_tip_lamports`; what is not given is kept.
   */
  setRoute(name: string, settings: Record<string, unknown>): RouteInfo;
  /** Credits lamports to an address directly (what requestAirdrop does, without a signature). */
  fund(address: string, lamports: bigint): void;
  /** Creates a launch token (create_v2) owned by a localnet operator wallet. */
  createToken(opts?: {
    name?: string;
    symbol?: string;
    uri?: string;
    mayhem?: boolean;
    cashback?: boolean;
  }): { mint: string; creator: string };
  /** Buys a curve out to completion. */
  complete(mint: string): void;
  /**
   * Migrates a complete curve into its canonical SOL-quoted swap pool by a recorded transaction of the
   * program's `migrate` instruction (or `migrate_v2`, which the live pump.fun migrator runs); returns the
   * pool address and the transaction's signature. Either opens the pool on the reserves a synthetic
   * migration left behind.
   */
  migrate(
    mint: string,
    opts?: { instruction?: "migrate" | "migrate_v2" },
  ): { pool: string; signature: string };
  /** Closes every PubSub WebSocket connection (as a node restart would); returns how many were open. */
  dropPubSubConnections(): number;
  /**
   * While on, PubSub upgrade requests are refused (503) as a node that is down would: clients cannot reconnect,
   * so transactions can land in a subscriber's gap. Does not close open connections (dropPubSubConnections).
   */
  refusePubSub(on: boolean): void;
  /**
   * While on, account notifications are held back (logs, slot and signature notifications still go out), as a
   * node whose account notifications lag its logs would; turned off, every held change is notified at once.
   */
  holdAccountNotifications(on: boolean): void;
  /**
   * Answers account subscriptions `ms` late (0: at once), as a provider whose subscription confirmations lag
   * would; the subscription notifies from the request on, like a node that confirms after it started.
   */
  delayAccountSubscribeAnswers(ms: number): void;
  /** Open PubSub connections and live subscriptions by kind ("account", "logs", "slot", "signature"). */
  pubsubCounts(): { connections: number; subscriptions: Record<string, number> };
  /**
   * Rewrites an existing account's owner, data (size included) or lamports, as a program upgrade or an
   * operator fix would; subscribers are notified like for any other change.
   */
  rewriteAccount(address: string, patch: { owner?: string; data?: Uint8Array; lamports?: bigint }): void;
  /** Makes `user` hold the given claimable bonding-curve lamports and swap WSOL cashback. */
  setCashback(user: string, amounts: { bondingLamports: bigint; swapLamports: bigint }): void;
}

/** A running localnet. */
export interface LocalnetHandle {
  /** Base URL; RPC is served at the root. */
  rpcUrl: string;
  /** Submission relay JSON-RPC endpoint (sendTransaction). */
  relayUrl: string;
  /** A second submission relay (same tip rules) with its own fault switches (admin.setRelay2Faults). */
  relay2Url: string;
  /** Bundle relay base (Jito block-engine paths below it: `${bundleRelayUrl}/api/v1/bundles`). */
  bundleRelayUrl: string;
  /**
   * RPC PubSub WebSocket URL (signature/slot/account/logs subscriptions), served on the RPC port; pass it as
   * `wsEndpoint` to web3.js' Connection (a standalone localnet on a fixed port also serves it on port + 1).
   */
  wsUrl: string;
  /** Admin routes base (`${adminUrl}/faults`, ...). */
  adminUrl: string;
  relayTipAccounts: string[];
  bundleTipAccounts: string[];
  relayTipLamports: bigint;
  /** The landing routes: several senders, each with its own tip accounts, minimum tip, drops and delays. */
  routes: { name: string; url: string; tipAccounts: string[]; minTipLamports: bigint }[];
  admin: LocalnetAdmin;
  close(): Promise<void>;
}

/** What `npm run localnet -- --json` prints on one line: the handle's URLs and tips, lamports as text. */
export interface LocalnetInfo {
  rpcUrl: string;
  relayUrl: string;
  bundleRelayUrl: string;
  adminUrl: string;
  wsUrl: string;
  relayTipAccounts: string[];
  bundleTipAccounts: string[];
  relayTipLamports: string;
  /** The localnet process id. */
  pid: number;
}
