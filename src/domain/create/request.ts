/**
 * The create-token request (spec 4.4) and the create model a bundle's create leg reuses (4.5): field aliases,
 * the program's name/symbol/uri limits, the initial buy and its slippage, with the spec's exact texts.
 */
import type { Address } from "../../core/addresses.js";
import { amountText, parseSolAmount } from "../../core/amounts.js";
import { badRequest, SPEC, TRADE_RULES, CREATE_RULES } from "../../core/errors.js";
import {
  advanceCurveAfterBuy,
  buyExactSolInTokensOut,
  type CurveFeesBps,
  type CurveState,
} from "../../launch/curve-quote.js";
import { DEFAULT_SLIPPAGE_BPS, minAfterSlippage, parseSlippagePercent } from "../../core/slippage.js";
import {
  fieldOf,
  parseBooleanField,
  parseOptionalWallet,
  type RequestBody,
} from "../../core/request-fields.js";

/** Limits the launch program enforces on create_v2 (errors 6043-6045), counted in UTF-8 bytes as borsh writes them. */
const MAX_NAME_BYTES = 32;
const MAX_SYMBOL_BYTES = 13;
const MAX_URI_BYTES = 200;

/** The initial developer buy of a create: the SOL text as sent, its lamports and its slippage. */
export interface InitialBuy {
  text: string;
  lamports: bigint;
  slippageBps: bigint;
}

/** The create model shared by the create endpoint and a bundle's create leg. */
export interface CreateFields {
  name: string;
  symbol: string;
  uri: string;
  mayhemMode: boolean;
  cashback: boolean;
  initialBuy?: InitialBuy;
}

/** A validated create-token request. */
export interface CreateRequest extends CreateFields {
  confirm: boolean;
  wallet?: Address;
}

const URI_NAMES = ["uri", "metadataUrl", "metadataUri"] as const;
const INITIAL_BUY_NAMES = ["initial_buy", "initialBuy", "buyAmountSol", "devBuy", "dev_buy"] as const;
const SLIPPAGE_NAMES = ["slippage", "initialBuySlippage", "devBuySlippage", "dev_buy_slippage"] as const;

const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

function parseNameSymbol(body: RequestBody): { name: string; symbol: string } {
  const { name, symbol } = body;
  if (typeof name !== "string" || typeof symbol !== "string" || name.trim() === "" || symbol.trim() === "") {
    throw badRequest(SPEC.create.nameSymbol);
  }
  if (utf8Length(name) > MAX_NAME_BYTES) throw badRequest(CREATE_RULES.nameTooLong);
  if (utf8Length(symbol) > MAX_SYMBOL_BYTES) throw badRequest(CREATE_RULES.symbolTooLong);
  return { name, symbol };
}

/** True for an absolute ipfs://, https:// or http:// URI with something after the scheme and no whitespace. */
export function isExternalMetadataUri(uri: string): boolean {
  if (/\s/.test(uri)) return false;
  const match = /^(ipfs|https|http):\/\/(.+)$/i.exec(uri);
  if (match === null) return false;
  if (match[1]?.toLowerCase() === "ipfs") return true;
  try {
    return new URL(uri).hostname !== "";
  } catch {
    return false;
  }
}

function parseUri(body: RequestBody): string {
  const value = fieldOf(body, URI_NAMES);
  if (value === undefined || value === "") throw badRequest(SPEC.create.uriRequired);
  if (typeof value !== "string" || !isExternalMetadataUri(value)) throw badRequest(SPEC.create.uriInvalid);
  if (utf8Length(value) > MAX_URI_BYTES) throw badRequest(CREATE_RULES.uriTooLong);
  return value;
}

function parseInitialBuy(body: RequestBody): InitialBuy | undefined {
  const value = fieldOf(body, INITIAL_BUY_NAMES);
  const slippage = fieldOf(body, SLIPPAGE_NAMES);
  if (value === undefined) {
    if (slippage !== undefined) throw badRequest(SPEC.create.slippageWithoutBuy);
    return undefined;
  }
  const text = amountText(value, CREATE_RULES.initialBuyInvalid);
  const lamports = parseSolAmount(value, {
    type: CREATE_RULES.initialBuyInvalid,
    invalid: CREATE_RULES.initialBuyInvalid,
    decimals: SPEC.create.initialBuyDecimals,
    positive: SPEC.create.initialBuyZero,
  });
  const slippageBps =
    slippage === undefined ? DEFAULT_SLIPPAGE_BPS : parseSlippagePercent(slippage, { allowZero: false });
  return { text, lamports, slippageBps };
}

/** Parses the create model (name, symbol, uri, flags, initial buy) from a create body or a bundle create leg. */
export function parseCreateFields(body: RequestBody): CreateFields {
  const { name, symbol } = parseNameSymbol(body);
  const uri = parseUri(body);
  const mayhemMode = parseBooleanField(
    fieldOf(body, ["mayhem_mode", "mayhemMode"]),
    false,
    CREATE_RULES.mayhemBoolean,
  );
  const cashback = parseBooleanField(body.cashback, false, CREATE_RULES.cashbackBoolean);
  const initialBuy = parseInitialBuy(body);
  return { name, symbol, uri, mayhemMode, cashback, ...(initialBuy === undefined ? {} : { initialBuy }) };
}

/** Parses `POST /v1/laser/create`'s body into a create intent, or throws the spec's 400. */
export function parseCreateRequest(body: RequestBody): CreateRequest {
  const fields = parseCreateFields(body);
  const wallet = parseOptionalWallet(body.wallet);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  return { ...fields, confirm, ...(wallet === undefined ? {} : { wallet }) };
}

/** The quoted initial buy: tokens the fresh curve gives, the slippage floor sent, and the curve afterwards. */
export interface InitialBuyQuote<C extends CurveState> {
  tokensOut: bigint;
  /** buy_exact_sol_in's min_tokens_out and the response's `initial_buy.expected_output`. */
  minTokensOut: bigint;
  curveAfter: C;
}

/** Quotes an initial (dev) buy with buy_exact_sol_in against the fresh curve and applies its slippage. */
export function quoteInitialBuy<C extends CurveState>(
  freshCurve: C,
  initialBuy: Pick<InitialBuy, "lamports" | "slippageBps">,
  fees: CurveFeesBps,
): InitialBuyQuote<C> {
  const quote = buyExactSolInTokensOut(initialBuy.lamports, freshCurve, fees);
  const tokensOut =
    quote.tokensOut < freshCurve.realTokenReserves ? quote.tokensOut : freshCurve.realTokenReserves;
  const minTokensOut = minAfterSlippage(tokensOut, initialBuy.slippageBps);
  if (minTokensOut <= 0n) throw badRequest(TRADE_RULES.tradeTooSmall);
  return { tokensOut, minTokensOut, curveAfter: advanceCurveAfterBuy(freshCurve, tokensOut, quote.netSol) };
}
