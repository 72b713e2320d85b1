/**
 * The bundle request (spec 4.5): its shape rules, checked in an order that yields the spec's texts, and the
 * quotes of a create-led bundle's buys against a curve model advanced after the dev buy and each earlier buyer.
 */
import { BUNDLE_TIP_FIELDS, checkTipMax, type FeeBounds } from "../../core/fee-fields.js";
import { type Address, parseAddress } from "../../core/addresses.js";
import {
  amountText,
  isPercentText,
  parseNonNegativeInteger,
  parseSolAmount,
  parseTokenUnits,
} from "../../core/amounts.js";
import { type CreateFields, parseCreateFields } from "../create/request.js";
import {
  fieldOf,
  isPresent,
  parseBooleanField,
  parseOptionalWallet,
  type RequestBody,
} from "../../core/request-fields.js";
import {
  advanceCurveAfterBuy,
  buyExactSolInTokensOut,
  type CurveFeesBps,
  type CurveState,
} from "../../launch/curve-quote.js";
import { badRequest, SPEC, TRADE_RULES, BUNDLE_RULES } from "../../core/errors.js";
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS, minAfterSlippage } from "../../core/slippage.js";

/** Most legs (transactions) in one bundle. */
const MAX_BUNDLE_LEGS = 4;
/** Smallest bundle tip: 0.000001 SOL. */
export const MIN_BUNDLE_TIP_LAMPORTS = 1_000n;

/** The configured bound a bundle's tip is checked against (TIP_MAX_SOL). */
export type BundleLimits = Pick<FeeBounds, "tipMaxLamports">;

/** A create leg: the create model of 4.4, signed and paid by `wallet` (default wallet when undefined). */
export interface BundleCreateLeg {
  type: "create";
  wallet?: Address;
  create: CreateFields;
}

/** A buy leg: `amount` is lamports when denominatedInSol, else token atomic units. */
export interface BundleBuyLeg {
  type: "buy";
  wallet?: Address;
  denominatedInSol: boolean;
  amountText: string;
  amount: bigint;
  slippageBps: bigint;
  pool?: Address;
}

/** A sell leg of an existing token: `amount` is token atomic units. */
export interface BundleSellLeg {
  type: "sell";
  wallet?: Address;
  amountText: string;
  amount: bigint;
  slippageBps: bigint;
  pool?: Address;
}

/** One validated leg, in request order. */
export type BundleLeg = BundleCreateLeg | BundleBuyLeg | BundleSellLeg;

/** Fields every bundle request carries once validated. */
interface BundleCommon {
  /** All legs in request order (index = the response's `index`). */
  legs: BundleLeg[];
  /** Paid by the first leg's wallet. */
  tipLamports: bigint;
  confirm: boolean;
}

/** A validated bundle: a create followed by 0–3 SOL buys, or one trade of an existing token. */
export type BundleRequest =
  | (BundleCommon & { shape: "create-led"; create: BundleCreateLeg; buys: BundleBuyLeg[] })
  | (BundleCommon & { shape: "existing-token"; mint: Address; trade: BundleBuyLeg | BundleSellLeg });

type LegType = BundleLeg["type"];

function legObjects(accounts: unknown): { body: RequestBody; type: LegType }[] {
  if (!Array.isArray(accounts) || accounts.length < 1 || accounts.length > MAX_BUNDLE_LEGS) {
    throw badRequest(SPEC.bundle.legCount);
  }
  return accounts.map((leg: unknown) => {
    if (typeof leg !== "object" || leg === null || Array.isArray(leg))
      throw badRequest(BUNDLE_RULES.legObject);
    const body = leg as RequestBody;
    const { type } = body;
    if (type !== "create" && type !== "buy" && type !== "sell") throw badRequest(BUNDLE_RULES.legType);
    return { body, type };
  });
}

function parseLegSlippageBps(body: RequestBody): bigint {
  if (isPresent(body.slippage)) throw badRequest(BUNDLE_RULES.legSlippage);
  const value = fieldOf(body, ["slippageBps", "slippage_bps"]);
  if (value === undefined) return DEFAULT_SLIPPAGE_BPS;
  const bps = parseNonNegativeInteger(value, BUNDLE_RULES.slippageBpsInvalid);
  if (bps > MAX_SLIPPAGE_BPS) throw badRequest(SPEC.bundle.slippageBpsMax);
  return bps;
}

const denominatedInSolOf = (body: RequestBody): boolean =>
  parseBooleanField(
    fieldOf(body, ["denominatedInSol", "denominated_in_sol"]),
    true,
    BUNDLE_RULES.legDenominated,
  );

function parseTradeLeg(
  body: RequestBody,
  type: "buy" | "sell",
  createLed: boolean,
): BundleBuyLeg | BundleSellLeg {
  const denominatedInSol = denominatedInSolOf(body);
  if (createLed && (type === "sell" || !denominatedInSol)) {
    throw badRequest(type === "sell" ? SPEC.bundle.sellAfterCreate : SPEC.bundle.newTokenLegs);
  }
  if (type === "sell" && denominatedInSol) throw badRequest(SPEC.trade.sellInSol);
  const wallet = parseOptionalWallet(body.wallet);
  const { amount } = body;
  if (!isPresent(amount)) throw badRequest(SPEC.bundle.amountRequired);
  if (isPercentText(amount)) throw badRequest(BUNDLE_RULES.legPercent);
  const slippageBps = parseLegSlippageBps(body);
  let pool: Address | undefined;
  if (isPresent(body.pool)) {
    if (createLed) throw badRequest(BUNDLE_RULES.poolWithCreate);
    pool = parseAddress(body.pool, TRADE_RULES.poolInvalid);
  }
  const text = amountText(amount);
  const units = type === "buy" && denominatedInSol ? parseSolAmount(amount) : parseTokenUnits(amount);
  const common = {
    ...(wallet === undefined ? {} : { wallet }),
    amountText: text,
    amount: units,
    slippageBps,
    ...(pool === undefined ? {} : { pool }),
  };
  return type === "buy" ? { type, denominatedInSol, ...common } : { type, ...common };
}

// The tip's rules in one place, after every leg rule (the spec lists its text last): required, a SOL amount,
// the spec's minimum, then the configured maximum.
function parseTip(body: RequestBody, limits: BundleLimits): bigint {
  const value = fieldOf(body, BUNDLE_TIP_FIELDS);
  if (value === undefined) throw badRequest(BUNDLE_RULES.bundleTipRequired);
  const lamports = parseSolAmount(value, {
    type: BUNDLE_RULES.bundleTipInvalid,
    invalid: BUNDLE_RULES.bundleTipInvalid,
    positive: SPEC.bundle.tipMin,
  });
  if (lamports < MIN_BUNDLE_TIP_LAMPORTS) throw badRequest(SPEC.bundle.tipMin);
  checkTipMax(lamports, limits.tipMaxLamports);
  return lamports;
}

/** Parses `POST /v1/laser/bundle`'s body into a create-led or existing-token bundle, or throws the spec's 400. */
export function parseBundleRequest(body: RequestBody, limits: BundleLimits): BundleRequest {
  const raw = legObjects(body.accounts);
  const mintGiven = isPresent(body.mint);
  const first = raw[0];
  if (first === undefined) throw badRequest(SPEC.bundle.legCount);

  if (first.type === "create") {
    if (mintGiven) throw badRequest(SPEC.bundle.mintWithCreate);
    const wallet = parseOptionalWallet(first.body.wallet);
    const create: BundleCreateLeg = {
      type: "create",
      ...(wallet === undefined ? {} : { wallet }),
      create: parseCreateFields(first.body),
    };
    const buys = raw.slice(1).map(({ body: leg, type }) => {
      // A second create is a "non-buy after create" in the spec's words.
      if (type === "create") throw badRequest(SPEC.bundle.newTokenLegs);
      return parseTradeLeg(leg, type, true) as BundleBuyLeg;
    });
    const tipLamports = parseTip(body, limits);
    const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
    return { shape: "create-led", create, buys, legs: [create, ...buys], tipLamports, confirm };
  }

  // A trade leg first: there is no prior create, so the token must be named at the top level.
  if (!mintGiven) throw badRequest(SPEC.bundle.mintRequired);
  if (raw.some((leg) => leg.type === "create")) throw badRequest(SPEC.bundle.mintWithCreate);
  if (raw.length > 1) throw badRequest(SPEC.bundle.oneExistingTrade);
  const mint = parseAddress(body.mint, TRADE_RULES.mintInvalid);
  const trade = parseTradeLeg(first.body, first.type, false);
  const tipLamports = parseTip(body, limits);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  return { shape: "existing-token", mint, trade, legs: [trade], tipLamports, confirm };
}

/** The quote of one create-led buy: spend `lamports` with buy_exact_sol_in, receive at least `minTokensOut`. */
export interface CreateLedBuyQuote {
  lamports: bigint;
  tokensOut: bigint;
  minTokensOut: bigint;
}

/**
 * Quotes a create-led bundle's buys in order against `curveAfterDevBuy`, advancing the model after each buyer
 * by the tokens it receives and the net lamports it adds. `fees` may be a function of the curve, since the fee
 * tier follows the market cap the earlier buys move.
 */
export function quoteCreateLedBuys(
  curveAfterDevBuy: CurveState,
  legs: readonly Pick<BundleBuyLeg, "amount" | "slippageBps">[],
  fees: CurveFeesBps | ((curve: CurveState) => CurveFeesBps),
): CreateLedBuyQuote[] {
  let curve = curveAfterDevBuy;
  return legs.map((leg) => {
    if (curve.realTokenReserves <= 0n) throw badRequest(TRADE_RULES.exceedsReserves);
    const rates = typeof fees === "function" ? fees(curve) : fees;
    const quote = buyExactSolInTokensOut(leg.amount, curve, rates);
    // Past the curve's real tokens the program's behaviour is unverified (reference D.2); a threshold at most
    // the remaining tokens stays valid whether it caps the fill or not.
    const tokensOut = quote.tokensOut < curve.realTokenReserves ? quote.tokensOut : curve.realTokenReserves;
    const minTokensOut = minAfterSlippage(tokensOut, leg.slippageBps);
    if (minTokensOut <= 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
    curve = advanceCurveAfterBuy(curve, tokensOut, quote.netSol);
    return { lamports: leg.amount, tokensOut, minTokensOut };
  });
}
