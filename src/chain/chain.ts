import { AddressLookupTableAccount, Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { ChainError } from "./chain-error.js";
import { extend } from "../core/extend.js";
import { launchSdk, launchSwapSdk } from "../launch/sdk.js";
import { createBundleRelayClient, type BundleRelayClient } from "./bundle-relay-client.js";
import { createChainCaches, type ChainCaches } from "./caches.js";
import { systemClock, type Clock } from "./clock.js";
import type { FetchLike } from "./json-rpc.js";
import type { PriorityFeeSetting } from "./priority-fee.js";
import { createRelayClient, type RelayClient } from "./relay-client.js";
import { decideProgramGeneration } from "./program-generation.js";
import type { GenerationVerdict, ProgramGenerationSetting } from "../launch/generation.js";
import { createFanOutRelay, type RelayObserver } from "./relay-fanout.js";
import { createRpcClient, type RpcClient } from "./rpc-client.js";
import { createChainSubscriptions, deriveWsUrl, type ChainSubscriptions } from "./subscriptions/index.js";
import { submitAndConfirm, submitBundle, type SubmitBundleResult, type SubmitResult } from "./submit.js";
import { upstreamDetail } from "./upstream-errors.js";
import {
  assembleTransaction,
  createUniqueOffsets,
  UNIQUE_OFFSET_SPAN,
  type AssembledTransaction,
  type AssembleInput,
} from "./tx-assembly.js";

/** Marks calls off the request path; the localnet counts them under "background:" (real RPCs ignore it). */
const BACKGROUND_HEADERS = { "x-localnet-tag": "background" };

/** Operation kinds with their own compute-unit limit. */
export type OperationKind = "trade" | "create" | "transfer" | "claim";

/** Everything the chain layer needs, as plain typed values (src/config/config.ts maps the environment onto it). */
export interface ChainOptions {
  rpcUrl: string;
  /** The RPC's PubSub endpoint (RPC_WS_URL); default derived from rpcUrl (http → ws, same host and path). */
  rpcWsUrl?: string;
  /** Told of subscription connection losses and refusals (logs). */
  onSubscriptionError?: (message: string) => void;
  /** Submission relay JSON-RPC endpoint (used when `relays` is not given). */
  relayUrl: string;
  /**
   * Several relays (RELAY presets): every single transaction goes to all of them in parallel and the send
   * resolves on the first acceptance. `name` labels logs and metrics; `headers` may carry an auth key.
   */
  relays?: readonly { name: string; url: string; headers?: Record<string, string> }[];
  /** Told of each relay's acceptance latency or failure (metrics, logs). */
  relayObserver?: RelayObserver;
  /** Bundle relay (block engine) base URL. */
  bundleRelayUrl: string;
  relayTipAccounts: readonly string[];
  relayTipLamports: bigint;
  /** Undefined: read once from the bundle relay's getTipAccounts at start. */
  bundleTipAccounts?: readonly string[];
  computeUnitPrice: PriorityFeeSetting;
  computeUnitLimits: Record<OperationKind, number>;
  rpcTimeoutMs: number;
  confirmTimeoutMs: number;
  bundleConfirmTimeoutMs: number;
  /**
   * Defaults: 9 read retries, none starting after the read has spent 2 × rpcTimeoutMs (a flaky RPC costs
   * retries, not failed trades; a hanging one fails within about three timeouts), relay timeout = rpcTimeoutMs,
   * poll 400 ms, rebroadcast 2 s, bundle poll 1 s, cache refresh 2 s.
   */
  rpcReadRetries?: number;
  relayTimeoutMs?: number;
  confirmPollMs?: number;
  rebroadcastMs?: number;
  bundlePollMs?: number;
  cacheRefreshMs?: number;
  /** Accounts kept warm; default the launch Global and FeeConfig, the swap GlobalConfig and FeeConfig. */
  cacheAccounts?: PublicKey[];
  /**
   * Address lookup tables (base58) used for v0 messages, kept in the caches. A create with its first buy
   * needs one to fit 1232 bytes (see src/launch/lookup-table.ts); tip accounts in it stay static anyway.
   */
  lookupTables?: readonly string[];
  fetch?: FetchLike;
  clock?: Clock;
  random?: () => number;
  onCacheError?: (e: unknown) => void;
  /** Launch program generation to trade with (PROGRAM_GENERATION); `auto` (default) probes it at start. */
  programGeneration?: ProgramGenerationSetting;
}

/** Inputs of `Chain.assemble`. */
export interface ChainAssembleInput {
  kind: OperationKind;
  /** The managed wallet's keypair, or an outside wallet's public key (left unsigned; see AssembleInput). */
  payer: Keypair | PublicKey;
  extraSigners?: Keypair[];
  instructions: TransactionInstruction[];
  /** "relay" (default): the submission relay's tip; "none": no tip (later bundle legs); or an explicit tip. */
  tip?: "relay" | "none" | { accounts: PublicKey[]; lamports: bigint };
  /** Override of the cached priority fee (e.g. a fixed figure chosen by the caller). */
  computeUnitPriceMicroLamports?: bigint;
  /** Accounts whose lock contention prices the transaction in auto mode (the curve or pool it writes). */
  feeAccounts?: readonly PublicKey[];
  /** Issue 22: a per-request priority fee in lamports; wins over any price (see AssembleInput). */
  priorityFeeLamports?: bigint;
  /** Override of the kind's configured compute-unit limit (the uniqueness offset is still added). */
  computeUnitLimit?: number;
  /** Default "v0", which uses the configured lookup tables. */
  version?: "v0" | "legacy";
  /** Shown the compiled transaction before it is signed; throws to refuse it (see AssembleInput.inspect). */
  inspect?: AssembleInput["inspect"];
  /**
   * A durable-nonce transaction (a raced trade's variant): its AdvanceNonceAccount goes first and its blockhash
   * is the nonce's value, not the cached recent one.
   */
  durableNonce?: { advance: TransactionInstruction; value: string };
}

/** A signed transaction plus the block height after which it can no longer land. */
export interface ChainTransaction extends AssembledTransaction {
  lastValidBlockHeight: number;
  /** The compute-unit price written into the transaction (recorded on the execution). */
  computeUnitPriceMicroLamports: bigint;
}

/** The chain layer: clients, caches, assembly and the submission pipeline. */
export interface Chain {
  rpc: RpcClient;
  /**
   * The same RPC for calls off the request path (cache refreshes, warm-state seeding): each call carries
   * `x-localnet-tag: background`, so the localnet counts them apart from a request's own calls.
   */
  backgroundRpc: RpcClient;
  /** The service's one PubSub connection (opened by the first subscription). */
  subscriptions: ChainSubscriptions;
  relay: RelayClient;
  bundleRelay: BundleRelayClient;
  caches: ChainCaches;
  /** The program generation trades use, and how it was decided (settled by `start()`; legacy before). */
  programGeneration(): GenerationVerdict;
  /** Loads the caches (and bundle tip accounts when not configured); must resolve before serving. */
  start(): Promise<void>;
  stop(): void;
  /** Compute budget of an operation: the highest limit a transaction may carry and the current price. */
  computeBudget(kind: OperationKind): { maxUnitLimit: bigint; priceMicroLamports: bigint };
  relayTip(): { accounts: PublicKey[]; lamports: bigint };
  /** Configured, or read from the bundle relay (once; retried while it fails: 502 when unavailable). */
  bundleTipAccounts(): Promise<PublicKey[]>;
  /** Builds and signs with cached blockhash and fee: no round trip. */
  assemble(input: ChainAssembleInput): ChainTransaction;
  /** simulate? → send → confirm?; see `submitAndConfirm`. Record the execution before calling. */
  submit(
    tx: ChainTransaction,
    flags: { simulate: boolean; confirm: boolean; simulationFailedDetail: string; onSent?: () => void },
  ): Promise<SubmitResult>;
  /** sendBundle → confirm?; see `submitBundle`. Record the legs before calling. */
  submitBundle(
    txs: ChainTransaction[],
    flags: { confirm: boolean; onSent?: () => void },
  ): Promise<SubmitBundleResult>;
}

/** Builds the chain layer from one options object; call `start()` before use. */
export function createChain(options: ChainOptions): Chain {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const rpcOptions = {
    url: options.rpcUrl,
    timeoutMs: options.rpcTimeoutMs,
    readRetries: options.rpcReadRetries ?? 9,
    readBudgetMs: 2 * options.rpcTimeoutMs,
    fetch: options.fetch,
    random,
  };
  const rpc = createRpcClient(rpcOptions);
  // The same RPC, with background calls (caches, subscriptions' reads) marked as such.
  const backgroundRpc = createRpcClient({ ...rpcOptions, headers: BACKGROUND_HEADERS });
  const subscriptions = createChainSubscriptions({
    url: options.rpcWsUrl ?? deriveWsUrl(options.rpcUrl),
    headers: BACKGROUND_HEADERS,
    random,
    ...(options.onSubscriptionError !== undefined ? { onError: options.onSubscriptionError } : {}),
  });
  const relayTimeoutMs = options.relayTimeoutMs ?? options.rpcTimeoutMs;
  const relay = createFanOutRelay(
    (options.relays ?? [{ name: "relay", url: options.relayUrl }]).map((r) => ({
      name: r.name,
      client: createRelayClient({
        url: r.url,
        timeoutMs: relayTimeoutMs,
        fetch: options.fetch,
        ...(r.headers !== undefined ? { headers: r.headers } : {}),
      }),
    })),
    options.relayObserver,
  );
  const bundleRelay = createBundleRelayClient({
    url: options.bundleRelayUrl,
    timeoutMs: relayTimeoutMs,
    fetch: options.fetch,
  });
  const lookupTableKeys = (options.lookupTables ?? []).map((a) => new PublicKey(a));
  const caches = createChainCaches({
    rpc: backgroundRpc,
    refreshMs: options.cacheRefreshMs ?? 2000,
    accounts: [
      ...(options.cacheAccounts ?? [
        launchSdk.GLOBAL_PDA,
        launchSdk.PUMP_FEE_CONFIG_PDA,
        launchSwapSdk.GLOBAL_CONFIG_PDA,
        launchSwapSdk.PUMP_AMM_FEE_CONFIG_PDA,
      ]),
      ...lookupTableKeys,
    ],
    priorityFee: options.computeUnitPrice,
    onError: options.onCacheError,
  });
  const relayTipAccounts = options.relayTipAccounts.map((a) => new PublicKey(a));
  let bundleTips = options.bundleTipAccounts?.map((a) => new PublicKey(a));
  const nextOffset = createUniqueOffsets(random);
  let bundleTipsError: unknown;

  // A bundle relay that is down at start must not stop the service: single transactions do not need it.
  // The read is retried on each bundle until it succeeds.
  async function loadBundleTips(): Promise<void> {
    try {
      bundleTips = (await bundleRelay.getTipAccounts()).map((a) => new PublicKey(a));
      bundleTipsError = undefined;
    } catch (e) {
      bundleTipsError = e;
      options.onCacheError?.(e);
    }
  }

  // Decoded once per cached account version (the caches swap in new objects on refresh).
  const decodedTables = new WeakMap<object, AddressLookupTableAccount>();
  function lookupTables(): AddressLookupTableAccount[] {
    const tables: AddressLookupTableAccount[] = [];
    for (const key of lookupTableKeys) {
      const account = caches.account(key);
      if (!account) continue; // Not created yet on this cluster: messages simply stay without it.
      let table = decodedTables.get(account);
      if (!table) {
        table = new AddressLookupTableAccount({
          key,
          state: AddressLookupTableAccount.deserialize(account.data),
        });
        decodedTables.set(account, table);
      }
      tables.push(table);
    }
    return tables;
  }

  // Legacy until start() decides: both generations accept the legacy instructions.
  let generation: GenerationVerdict =
    options.programGeneration === "2026-10"
      ? { generation: "2026-10", source: "configured", reason: "PROGRAM_GENERATION is set" }
      : { generation: "2026-09", source: "fallback", reason: "not decided yet" };

  function assemble(input: ChainAssembleInput): ChainTransaction {
    const recent = caches.blockhash();
    const blockhash = input.durableNonce?.value ?? recent.blockhash;
    const lastValidBlockHeight = recent.lastValidBlockHeight;
    const tip =
      input.tip === "none"
        ? undefined
        : input.tip === undefined || input.tip === "relay"
          ? // A relay without tip accounts (RELAY=rpc) takes no tip.
            relayTipAccounts.length === 0
            ? undefined
            : { accounts: relayTipAccounts, lamports: options.relayTipLamports }
          : input.tip;
    const price = input.computeUnitPriceMicroLamports ?? caches.priorityFeeMicroLamports(input.feeAccounts);
    const assembled = assembleTransaction({
      payer: input.payer,
      extraSigners: input.extraSigners,
      instructions: input.instructions,
      computeUnitLimit: input.computeUnitLimit ?? options.computeUnitLimits[input.kind],
      computeUnitPriceMicroLamports: price,
      ...(input.priorityFeeLamports !== undefined ? { priorityFeeLamports: input.priorityFeeLamports } : {}),
      tip,
      blockhash,
      ...(input.durableNonce !== undefined ? { firstInstruction: input.durableNonce.advance } : {}),
      uniqueOffset: nextOffset(),
      random,
      version: input.version ?? "v0",
      lookupTables: input.version === "legacy" ? undefined : lookupTables(),
      ...(input.inspect !== undefined ? { inspect: input.inspect } : {}),
    });
    // Not `{ ...assembled, lastValidBlockHeight }`: a literal opening with a spread is slow on Node 20.
    return extend(assembled, { lastValidBlockHeight });
  }

  return {
    rpc,
    backgroundRpc,
    subscriptions,
    relay,
    bundleRelay,
    caches,
    programGeneration: () => generation,
    async start() {
      await caches.start();
      if (!bundleTips) await loadBundleTips();
      generation = await decideProgramGeneration(options.programGeneration ?? "auto", backgroundRpc);
    },
    stop: () => {
      caches.stop();
      void subscriptions.close();
    },
    computeBudget(kind) {
      return {
        maxUnitLimit: BigInt(options.computeUnitLimits[kind] + UNIQUE_OFFSET_SPAN - 1),
        priceMicroLamports: caches.priorityFeeMicroLamports(),
      };
    },
    relayTip: () => ({ accounts: relayTipAccounts, lamports: options.relayTipLamports }),
    async bundleTipAccounts() {
      if (!bundleTips) await loadBundleTips();
      if (!bundleTips) {
        throw new ChainError(
          "rpc_unavailable",
          `bundle tip accounts unavailable: ${upstreamDetail(bundleTipsError)}`,
        );
      }
      return bundleTips;
    },
    assemble,
    submit(tx, flags) {
      return submitAndConfirm({
        rpc,
        relay,
        signature: tx.signature,
        wire: tx.wire,
        lastValidBlockHeight: tx.lastValidBlockHeight,
        simulate: flags.simulate,
        confirm: flags.confirm,
        simulationFailedDetail: flags.simulationFailedDetail,
        ...(flags.onSent !== undefined ? { onSent: flags.onSent } : {}),
        settings: {
          timeoutMs: options.confirmTimeoutMs,
          pollMs: options.confirmPollMs ?? 400,
          rebroadcastMs: options.rebroadcastMs ?? 2000,
          clock,
        },
      });
    },
    submitBundle(txs, flags) {
      return submitBundle({
        bundleRelay,
        wires: txs.map((t) => t.wire),
        signatures: txs.map((t) => t.signature),
        confirm: flags.confirm,
        ...(flags.onSent !== undefined ? { onSent: flags.onSent } : {}),
        // Issue 22: a bundle the relay reports failed has its first leg simulated to say why.
        rpc,
        timeoutMs: options.bundleConfirmTimeoutMs,
        pollMs: options.bundlePollMs ?? 1000,
        clock,
      });
    },
  };
}
