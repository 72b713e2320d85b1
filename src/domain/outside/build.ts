/**
 * POST /v1/trades/build (issue 32): a trade by a wallet the service does not hold, quoted and built exactly like
 * a managed trade (the same read or warm state, quote, instructions and instruction generation, compute budget,
 * priority fee and relay tip), answered unsigned as base64 for the outside wallet to sign.
 */
import { PublicKey } from "@solana/web3.js";
import { parseAddress, type Address } from "../../core/addresses.js";
import { fieldOf, type RequestBody } from "../../core/request-fields.js";
import { badRequest } from "../../core/errors.js";
import { LAUNCHSWAP } from "../../core/venues.js";
import type { Chain } from "../../chain/chain.js";
import { cachedTradeConfigs, chainGeneration } from "../trade/configs.js";
import { quoteRead, tradeDetails, tradeInstructions } from "../trade/plan.js";
import { parseTradeRequest, type TradeIntent } from "../trade/request.js";
import { tradeState, type TradeVenues } from "../trade/warm-read.js";
import { tradeBounds, type TradeBounds } from "../trade/bounds.js";
import { refuseUnaffordable } from "../trade/service.js";
import type { SpendGuard, VenueCheck } from "../execution/types.js";
import type { OutsideBuilds } from "./builds.js";
import { assembleOutside } from "./assemble-outside.js";
import { OUTSIDE } from "./texts.js";
import type { TradeRacing } from "../trade/raced-trade.js";
import { outsideNonce } from "./nonce-account.js";
import { OUTSIDE_NONCE } from "./nonce-texts.js";
import { buildRacedVariants, outsideRaceRoutes, type RacedBuildAnswer } from "./raced-build.js";

/** A build request: the trade's fields and the outside signer. */
export interface BuildIntent {
  trade: TradeIntent;
  publicKey: Address;
  /** Raced builds: a nonce account the wallet controls (default: the wallet's derived one). */
  nonceAccount?: Address;
}

/** Parses a build body: the trade's rules (spec 4.3 texts) and `public_key`. */
export function parseBuildRequest(body: RequestBody): BuildIntent {
  const trade = parseTradeRequest(body);
  const pk = fieldOf(body, ["public_key", "publicKey"]);
  if (pk === undefined || pk === null || pk === "") throw badRequest(OUTSIDE.publicKeyRequired);
  const nonce = fieldOf(body, ["nonce_account", "nonceAccount"]);
  return {
    trade,
    publicKey: parseAddress(pk, OUTSIDE.publicKeyInvalid),
    ...(nonce !== undefined && nonce !== null
      ? { nonceAccount: parseAddress(nonce, OUTSIDE_NONCE.nonceAccountInvalid) }
      : {}),
  };
}

/** Collaborators of a build. */
export interface BuildDeps {
  chain: Pick<Chain, "rpc" | "caches" | "assemble"> &
    Partial<Pick<Chain, "programGeneration" | "relayTip" | "computeBudget">>;
  outsideBuilds: OutsideBuilds;
  venues?: TradeVenues;
  checkVenue?: VenueCheck;
  spendGuard?: SpendGuard;
  random?: () => number;
  /** ROUTES: a build asking for `routes` / `mev_protect` answers one variant per route on the wallet's nonce. */
  racing?: TradeRacing;
}

/** The build answer. */
export type BuildResult = {
  /** A single build's transaction (a raced build answers `variants`). */
  transaction?: string;
  public_key: string;
  action: "buy" | "sell";
  mint: string;
  amount: string;
  amount_units_text: string;
  denominated_in_sol: boolean;
  venue: string;
  pool: string | null;
  instruction: string;
  expected_output: string;
  state_source: "cache" | "read" | "event";
  state_slot: number;
  compute_unit_limit: number;
  compute_unit_price_micro_lamports: string;
  tip_lamports: string;
  last_valid_block_height?: number;
} & TradeBounds &
  Partial<
    Omit<RacedBuildAnswer, "compute_unit_limit" | "compute_unit_price_micro_lamports" | "tip_lamports">
  >;

/** Builds the trade for the outside wallet; the key's per-execution cap judges its worst case. */
export async function runBuild(deps: BuildDeps, apiKeyId: number, intent: BuildIntent): Promise<BuildResult> {
  const { trade, publicKey } = intent;
  // Racing fields first: a bad route name is refused before any chain access (each route gets the relay tip).
  const routeTip = deps.chain.relayTip?.().lamports ?? 0n;
  const routes = outsideRaceRoutes(trade.raceFields, deps.racing, routeTip);
  // Before the chain: a frozen or revoked key builds nothing.
  await deps.spendGuard?.beforeSign();
  // The warm state is read, never adopted: the service does not subscribe to an outside wallet's accounts.
  // A raced build reads the wallet's nonce beside it (a missing or foreign nonce is a 409 naming the fix).
  const [state, nonce] = await Promise.all([
    tradeState(deps.chain.rpc, deps.venues, trade, publicKey, apiKeyId),
    routes === null ? null : outsideNonce(deps.chain.rpc, new PublicKey(publicKey), intent.nonceAccount),
  ]);
  const read = state.read;
  deps.checkVenue?.(read.venue);
  const configs = cachedTradeConfigs(deps.chain.caches, chainGeneration(deps.chain));
  const quote = quoteRead(trade, read, configs);
  // As a managed trade: a wallet that cannot pay the trade's floor cost gets the 400 naming it now, not a
  // transaction that fails once signed.
  refuseUnaffordable(deps, publicKey, read, quote, false);
  const instructions = await tradeInstructions(read, quote, configs, deps.random);
  const feeAccounts = [read.venue === LAUNCHSWAP ? read.poolAddress : read.curveAddress];
  const amount = trade.amount.kind === "wholeTokens" ? quote.amountUnits.toString() : trade.amountText;
  const details = { ...tradeDetails(read, quote, configs), outside: true };
  const { venue, pool, mint } = details;
  const request = {
    action: trade.action,
    mint: trade.mint,
    pool: trade.pool,
    amount: trade.amountText,
    denominated_in_sol: trade.denominatedInSol,
    slippage_bps: Number(trade.slippageBps),
    public_key: publicKey,
    outside: true,
  };
  const answer = {
    public_key: publicKey,
    action: trade.action,
    mint,
    amount,
    amount_units_text: quote.amountUnits.toString(),
    denominated_in_sol: trade.denominatedInSol,
    venue,
    pool,
    instruction: details.instruction,
    expected_output: quote.expectedOutput.toString(),
    state_source: state.source,
    state_slot: state.slot,
    ...tradeBounds(quote),
  };
  if (routes !== null && nonce !== null) {
    const raced = await buildRacedVariants({
      chain: deps.chain,
      outsideBuilds: deps.outsideBuilds,
      ...(deps.spendGuard !== undefined ? { spendGuard: deps.spendGuard } : {}),
      build: { apiKeyId, publicKey, mint, action: trade.action, request, details },
      instructions,
      feeAccounts,
      routes,
      tipLamports: routeTip,
      nonce,
    });
    return { ...answer, ...raced };
  }
  // The key's per-execution cap judges the worst case, as before a managed signature (throws a refusal).
  const { tx, message, spendable } = assembleOutside(deps, {
    kind: "trade",
    payer: new PublicKey(publicKey),
    instructions,
    feeAccounts,
  });
  const tipLamports = tx.tipAccount === null ? 0n : (deps.chain.relayTip?.().lamports ?? 0n);
  await deps.outsideBuilds.remember(message, {
    apiKeyId,
    publicKey,
    mint,
    action: trade.action,
    request,
    details,
    spendable,
    lastValidBlockHeight: tx.lastValidBlockHeight,
    computeUnitLimit: tx.computeUnitLimit,
    computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
  });
  return {
    transaction: Buffer.from(tx.wire).toString("base64"),
    ...answer,
    compute_unit_limit: tx.computeUnitLimit,
    compute_unit_price_micro_lamports: tx.computeUnitPriceMicroLamports.toString(),
    tip_lamports: tipLamports.toString(),
    last_valid_block_height: tx.lastValidBlockHeight,
  };
}
