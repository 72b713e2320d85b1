/**
 * POST /v1/trades/execute (spec 4.3): parse → select wallet → one getMultipleAccounts (routing, balances,
 * curve or pool state; configs and blockhash from the caches) → quote → instructions → the shared
 * execution pipeline → response with the spec's fields and, when asked, timing_ms.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { badRequest, EXECUTION, SPEC } from "../../core/errors.js";
import { ms, runSingleExecution } from "../execution/pipeline.js";
import { cachedTradeConfigs } from "./configs.js";
import { quoteRead, tradeInstructions } from "./plan.js";
import { tradeState } from "./warm-read.js";
import type { VenueState } from "../watch/venue-state.js";
import { parseTradeRequest, type TradeIntent } from "./request.js";
import { selectWallet } from "../wallets/wallets.js";

/** Collaborators of a trade. */
export interface TradeDeps {
  store: Pick<Store, "findWallet" | "findDefaultWallet" | "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "rpc" | "caches" | "assemble" | "submit" | "submitBundle">;
  vault: Pick<Vault, "withKeypair">;
  /** Monotonic milliseconds for timing_ms; default performance.now. */
  now?: () => number;
  /** Uniform [0, 1) for fee-recipient choice; default Math.random. */
  random?: () => number;
  /** Told when an execution outcome could not be written. */
  onRecordError?: (e: unknown) => void;
  /** Warm venue state (issue 18): a watched mint with fresh state trades without a read. */
  venues?: Pick<VenueState, "lookup" | "afterRead">;
}

/** Integer milliseconds per stage (spec 4.3 timing_ms). */
export interface TradeTimings {
  wallet: number;
  amount: number;
  build: number;
  sender: number;
  confirmation: number;
  database: number;
  total: number;
}

/** The spec's trade result. */
export interface TradeResponse {
  wallet: string;
  action: "buy" | "sell";
  mint: string;
  amount: string;
  amount_units: bigint;
  denominated_in_sol: boolean;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
  venue: "bonding_curve" | "launchswap";
  pool: string | null;
  expected_output: string;
  /** "cache": the warm venue state (no read); "read": this trade's own getMultipleAccounts. */
  state_source: "cache" | "read";
  /** The slot of the state the quote used. */
  state_slot: number;
  timing_ms?: TradeTimings;
}

/** What the execution record keeps of the request (the trade request carries no secret). */
function requestSummary(intent: TradeIntent): Record<string, unknown> {
  return {
    action: intent.action,
    mint: intent.mint,
    pool: intent.pool,
    amount: intent.amountText,
    denominated_in_sol: intent.denominatedInSol,
    slippage_bps: Number(intent.slippageBps),
    simulate: intent.simulate,
    confirm: intent.confirm,
    wallet: intent.wallet,
  };
}

/**
 * Executes one trade for the key. A named wallet the key does not hold is 404 `wallet not found` (as on the
 * wallet endpoints), decided before any chain access.
 */
export async function executeTrade(deps: TradeDeps, apiKeyId: number, body: unknown): Promise<TradeResponse> {
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest(EXECUTION.bodyObject);
  const intent = parseTradeRequest(body as Record<string, unknown>);
  const wallet = await selectWallet(deps.store, apiKeyId, intent.wallet ?? undefined);
  const tWallet = now();

  const state = await tradeState(deps.chain.rpc, deps.venues, intent, new PublicKey(wallet.publicKey));
  const read = state.read;
  const configs = cachedTradeConfigs(deps.chain.caches);
  const quote = quoteRead(intent, read, configs);
  const tAmount = now();
  const instructions = await tradeInstructions(read, quote, configs, deps.random);
  const tInstructions = now();

  const venue = read.venue;
  const pool = read.venue === "launchswap" ? read.poolAddress.toBase58() : null;
  const details = {
    venue,
    pool,
    mint: read.mint.toBase58(),
    amount_units: quote.amountUnits.toString(),
    expected_output: quote.expectedOutput.toString(),
    instruction: quote.args.instruction,
  };
  const result = await runSingleExecution({
    deps,
    apiKeyId,
    kind: "trade",
    wallet,
    request: requestSummary(intent),
    // In auto fee mode the trade pays what recent transactions writing its curve or pool paid.
    build: () => ({
      instructions,
      computeKind: "trade",
      feeAccounts: [read.venue === "launchswap" ? read.poolAddress : read.curveAddress],
    }),
    simulate: intent.simulate,
    confirm: intent.confirm,
    simulationFailedDetail: SPEC.trade.simulationFailed,
    details,
  });
  const tEnd = now();

  const response: TradeResponse = {
    wallet: wallet.publicKey,
    action: intent.action,
    mint: read.mint.toBase58(),
    amount: intent.amountText,
    amount_units: quote.amountUnits,
    denominated_in_sol: intent.denominatedInSol,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmation_status: intent.confirm ? result.confirmationStatus : null,
    venue,
    pool,
    expected_output: quote.expectedOutput.toString(),
    state_source: state.source,
    state_slot: state.slot,
  };
  if (intent.measureTiming) {
    response.timing_ms = {
      // Request parsing is folded into "wallet": it is what has to happen before the wallet is known.
      wallet: ms(t0, tWallet),
      amount: ms(tWallet, tAmount),
      build: ms(tAmount, tInstructions) + result.timings.build,
      sender: result.timings.sender,
      confirmation: result.timings.confirmation,
      database: result.timings.database,
      total: ms(t0, tEnd),
    };
  }
  return response;
}
