/**
 * POST /v1/trades/execute (spec 4.3): parse → select wallet → one getMultipleAccounts (routing, balances,
 * curve or pool state; configs and blockhash from the caches) → quote → instructions → the shared
 * execution pipeline → response with the spec's fields and, when asked, timing_ms.
 */
import { LAUNCHSWAP, type Venue } from "../../core/venues.js";
import type { Chain } from "../../chain/chain.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { SPEC } from "../../core/errors.js";
import { ms, runSingleExecution } from "../execution/pipeline.js";
import { cachedTradeConfigs, chainGeneration } from "./configs.js";
import { quoteRead, tradeDetails, tradeInstructions } from "./plan.js";
import { tradeState, type TradeVenues } from "./warm-read.js";
import { selectRaceRoutes } from "./race-request.js";
import type { DryRun } from "../execution/dry-run.js";
import type { SingleExecutionInput } from "../execution/types.js";
import { runRacedTrade, type RaceAnswer, type TradeRacing } from "./raced-trade.js";
import type { TradeIntent } from "./request.js";
import { selectWallet } from "../wallets/wallets.js";
import { insufficientSol, lamportsNeeded, TOKEN_ACCOUNT_RENT_LAMPORTS } from "../execution/affordability.js";
import { tradeBounds, tradeSolIn, type TradeBounds } from "./bounds.js";
import type { TradeQuote } from "./quote.js";
import type { Fill } from "../../chain/fills.js";
import type { VenueCheck } from "../execution/types.js";
import type { TradeRead } from "../../launch/trade-accounts.js";
import type { TransactionInstruction } from "@solana/web3.js";

/** Collaborators of a trade. */
export interface TradeDeps {
  store: Pick<Store, "findWallet" | "findDefaultWallet" | "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "rpc" | "caches" | "assemble" | "submit" | "submitBundle"> &
    Partial<Pick<Chain, "computeBudget" | "relayTip" | "programGeneration">>;
  vault: Pick<Vault, "withKeypair">;
  /** Monotonic milliseconds for timing_ms; default performance.now. */
  now?: () => number;
  /** Uniform [0, 1) for fee-recipient choice; default Math.random. */
  random?: () => number;
  /** Told when an execution outcome could not be written. */
  onRecordError?: (e: unknown) => void;
  /** Warm venue state (issue 18): a watched mint with fresh state trades without a read. */
  venues?: TradeVenues;
  /** Issue 19: the key's venue rule on the routed venue, before anything is signed. */
  checkVenue?: VenueCheck;
  /** ROUTES: the routes a trade asking for `routes` / `mev_protect` races over. */
  racing?: TradeRacing;
  /** Set on a dry run (a race is then described as a single transaction). */
  dryRun?: DryRun;
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
  /** Issue 30: amount_units as decimal text (the spec fixes amount_units as a JSON integer; u64 exceeds 2^53). */
  amount_units_text: string;
  denominated_in_sol: boolean;
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
  venue: Venue;
  pool: string | null;
  expected_output: string;
  /** "cache": the warm venue state (no read); "event": a created mint's events (no read); "read": its own read. */
  state_source: "cache" | "read" | "event";
  /** The slot of the state the quote used. */
  state_slot: number;
  timing_ms?: TradeTimings;
}

/** The trade response with issue 22's additions (unit-stable bounds beside expected_output). */
export type TradeResult = TradeResponse & TradeBounds & { fill?: Fill | null } & Partial<RaceAnswer>;

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
 * Executes one parsed trade for the key (the trade kind's run: the body was parsed once, before policy). A named
 * wallet the key does not hold is 404 `wallet not found` (as on the wallet endpoints), decided before any chain
 * access.
 */
export async function runTrade(deps: TradeDeps, apiKeyId: number, intent: TradeIntent): Promise<TradeResult> {
  const now = deps.now ?? (() => performance.now());
  const t0 = now();
  // Racing fields first: a bad route name is refused before any chain access. Each route is paid the trade's tip.
  const tipLamports = deps.chain.relayTip?.().lamports ?? 0n;
  const racing = deps.racing;
  const raceRoutes = selectRaceRoutes(
    intent.raceFields ?? {},
    racing === undefined
      ? undefined
      : { routes: racing.routes, demoted: (n) => racing.stats.demotion(n).demoted },
    tipLamports,
  );
  const wallet = await selectWallet(deps.store, apiKeyId, intent.wallet ?? undefined);
  const tWallet = now();

  // The same read (or warm state) carries the wallet's lamports for the pre-send check (no extra round trip).
  const state = await tradeState(deps.chain.rpc, deps.venues, intent, wallet.publicKey, apiKeyId);
  const read = state.read;
  deps.checkVenue?.(read.venue);
  const configs = cachedTradeConfigs(deps.chain.caches, chainGeneration(deps.chain));
  const quote = quoteRead(intent, read, configs);
  refuseUnaffordable(deps, wallet.publicKey, read, quote, intent.simulate);
  const tAmount = now();
  // Handed to `build` once and dropped there: this frame waits on the relay call for tens of milliseconds, and
  // the instructions (accounts, metas, data) would otherwise live through a scavenge or two (issue 18).
  let instructions: TransactionInstruction[] | undefined = await tradeInstructions(
    read,
    quote,
    configs,
    deps.random,
  );
  const tInstructions = now();

  const details = tradeDetails(read, quote, configs);
  const { venue, pool, mint } = details;
  const execution: SingleExecutionInput = {
    deps,
    apiKeyId,
    kind: "trade",
    wallet,
    request: requestSummary(intent),
    // In auto fee mode the trade pays what recent transactions writing its curve or pool paid.
    build: () => {
      const built = instructions;
      if (built === undefined) throw new Error("trade: the transaction is built once");
      instructions = undefined;
      return {
        instructions: built,
        computeKind: "trade",
        feeAccounts: [read.venue === LAUNCHSWAP ? read.poolAddress : read.curveAddress],
      };
    },
    simulate: intent.simulate,
    confirm: intent.confirm,
    simulationFailedDetail: SPEC.trade.simulationFailed,
    details,
    fill: { wallet: wallet.publicKey, mint, side: intent.action },
  };
  const raced =
    raceRoutes !== null && racing !== undefined && deps.dryRun === undefined
      ? await runRacedTrade(racing, raceRoutes, tipLamports, execution)
      : undefined;
  const result =
    raced === undefined
      ? await runSingleExecution(execution)
      : { ...raced, timings: { build: 0, sender: 0, confirmation: 0, database: 0 } };
  // Off the request path: the wallet's accounts of the mint get subscribed once the trade is out, on a later
  // turn than the answer (subscribing is a tenth of a millisecond of the first buy's own time, issue 32).
  const adopt = state.adopt;
  if (adopt !== undefined) setImmediate(() => adoptQuietly(adopt));
  const tEnd = now();

  const response: TradeResult = {
    wallet: wallet.publicKey,
    action: intent.action,
    mint,
    // A whole-token sell (amount_tokens) answers its amount in the spec's unit for sells: atomic units.
    amount: intent.amount.kind === "wholeTokens" ? quote.amountUnits.toString() : intent.amountText,
    amount_units: quote.amountUnits,
    amount_units_text: quote.amountUnits.toString(),
    denominated_in_sol: intent.denominatedInSol,
    execution_id: result.executionId,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmation_status: intent.confirm ? result.confirmationStatus : null,
    venue,
    pool,
    expected_output: quote.expectedOutput.toString(),
    state_source: state.source,
    state_slot: state.slot,
    ...tradeBounds(quote),
    ...(result.fill !== undefined ? { fill: result.fill } : {}),
    ...(raced !== undefined ? raced.race : {}),
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

/** Runs a trade's adoption on its own turn: a throw there must not end the process (nothing awaits it). */
function adoptQuietly(adopt: () => void): void {
  try {
    adopt();
  } catch {
    // The warm state is a cache: without the adoption the wallet's next trade of the mint reads, as before.
  }
}

/**
 * Issue 22: a 400 naming the wallet when its balance cannot pay the trade's floor cost. With `simulate` on it is
 * the spec's `trade simulation failed` (issue 30), the explanation in `reason` beside it. Also an outside
 * wallet's build (issue 32).
 */
export function refuseUnaffordable(
  deps: { chain: Partial<Pick<Chain, "computeBudget" | "relayTip">> },
  wallet: string,
  read: TradeRead,
  quote: TradeQuote,
  simulate: boolean,
): void {
  // Test doubles without fee collaborators skip the check; the simulation still decides.
  if (
    read.userLamports === undefined ||
    deps.chain.computeBudget === undefined ||
    deps.chain.relayTip === undefined
  )
    return;
  const budget = deps.chain.computeBudget("trade");
  const buying = quote.args.instruction !== "sell";
  // A buy creates the wallet's token account when it has none; a pool buy also wraps SOL in a WSOL account.
  const accounts =
    (buying && !read.userAtaExists ? 1n : 0n) +
    (buying && read.venue === LAUNCHSWAP && !read.userWsolExists ? 1n : 0n);
  const needed = lamportsNeeded({
    amountLamports: tradeSolIn(quote),
    computeUnitLimit: budget.maxUnitLimit,
    computeUnitPriceMicroLamports: budget.priceMicroLamports,
    tipLamports: deps.chain.relayTip().lamports,
    rentLamports: accounts * TOKEN_ACCOUNT_RENT_LAMPORTS,
  });
  const refusal = insufficientSol(
    { wallet, balanceLamports: read.userLamports, what: "trade" },
    needed,
    simulate ? SPEC.trade.simulationFailed : undefined,
  );
  if (refusal !== null) throw refusal;
}
