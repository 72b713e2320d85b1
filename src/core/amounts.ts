/**
 * Decimal text <-> bigint, the one place amounts cross the wire. Parsing works on the digits of the text
 * (a JSON number is first turned into its shortest round-trip text with String(n)); no float arithmetic
 * ever touches a value. Exponent forms ("1e-7", "5E-9", "1.5e+3") are expanded exactly.
 */
import { badRequest, SPEC, TRADE_RULES } from "./errors.js";

/** Lamports per SOL, and the number of decimals of a SOL amount. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;
const SOL_DECIMALS = 9;

/** The largest value of an on-chain u64 (lamports and token amounts are u64 in every program). */
export const U64_MAX = 18_446_744_073_709_551_615n;

/** Outcome of parsing a decimal text at a fixed scale. */
export type DecimalResult =
  /** `scaled` = value × 10^maxDecimals, exact, signed. */
  | { readonly kind: "ok"; readonly scaled: bigint }
  /** Not a decimal number (empty, NaN, Infinity, letters, two points, ...). */
  | { readonly kind: "invalid" }
  /** A valid number with more significant decimals than allowed. */
  | { readonly kind: "too-precise" }
  /** Magnitude far beyond any u64 amount (guards against "1e999999999"). */
  | { readonly kind: "too-large" };

// Sign, integer digits, optional fraction, optional exponent. "1." and ".5" are accepted (unambiguous values);
// a lone "." or a bare exponent is not (checked below).
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

// Past this many digits to the left of the point no amount can fit a u64 at any scale we use.
const MAX_INTEGER_DIGITS = 40;
// Texts longer than this are not amounts; the bound keeps bigint work small for hostile input.
const MAX_TEXT_LENGTH = 200;

/**
 * Parses a decimal text exactly and scales it by 10^maxDecimals. Trailing zeros do not count as decimals
 * ("1.50" has 1 decimal), so the check is on the value, whatever notation wrote it.
 */
export function parseDecimal(text: string, maxDecimals: number): DecimalResult {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_TEXT_LENGTH) return { kind: "invalid" };
  const match = DECIMAL.exec(trimmed);
  if (match === null) return { kind: "invalid" };
  const [, sign = "", intPart = "", fracPart = "", expPart] = match;
  if (intPart.length === 0 && fracPart.length === 0) return { kind: "invalid" };

  let digits = (intPart + fracPart).replace(/^0+/, "");
  if (digits.length === 0) return { kind: "ok", scaled: 0n };
  // value = digits × 10^power
  let power = -fracPart.length + (expPart === undefined ? 0 : Number(expPart));
  if (!Number.isSafeInteger(power)) return power > 0 ? { kind: "too-large" } : { kind: "too-precise" };
  const stripped = digits.replace(/0+$/, "");
  power += digits.length - stripped.length;
  digits = stripped;

  if (digits.length + power > MAX_INTEGER_DIGITS) return { kind: "too-large" };
  if (-power > maxDecimals) return { kind: "too-precise" };
  const scaled = BigInt(digits) * 10n ** BigInt(power + maxDecimals);
  return { kind: "ok", scaled: sign === "-" ? -scaled : scaled };
}

/** Error texts a caller can swap in for its endpoint (create and transfer reuse the SOL parser). */
export interface SolAmountErrors {
  /** amount is neither a number nor a string. */
  readonly type?: string;
  /** text is not a decimal number. */
  readonly invalid?: string;
  /** more than 9 decimals. */
  readonly decimals?: string;
  /** zero or negative. */
  readonly positive?: string;
  /** above u64 lamports. */
  readonly tooLarge?: string;
}

/** The text a JSON amount stands for: strings as sent, numbers as their shortest round-trip text. */
export function amountText(value: unknown, typeError: string = SPEC.trade.amountType): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw badRequest(typeError);
}

/**
 * Parses a SOL amount (JSON number or string, at most 9 decimals) into lamports; must be > 0 and fit a u64.
 * Error texts default to the trade endpoint's; pass `errors` to use another endpoint's.
 */
export function parseSolAmount(value: unknown, errors: SolAmountErrors = {}): bigint {
  const text = amountText(value, errors.type ?? SPEC.trade.amountType);
  const parsed = parseDecimal(text, SOL_DECIMALS);
  switch (parsed.kind) {
    case "invalid":
      throw badRequest(errors.invalid ?? TRADE_RULES.amountInvalid);
    case "too-precise":
      throw badRequest(errors.decimals ?? SPEC.trade.solDecimals);
    case "too-large":
      throw badRequest(errors.tooLarge ?? TRADE_RULES.amountTooLarge);
    case "ok":
      if (parsed.scaled <= 0n) throw badRequest(errors.positive ?? TRADE_RULES.amountPositive);
      if (parsed.scaled > U64_MAX) throw badRequest(errors.tooLarge ?? TRADE_RULES.amountTooLarge);
      return parsed.scaled;
  }
}

/**
 * Parses a token amount in atomic units (positive integer, JSON number or string) that fits a u64.
 * JSON numbers above 2^53 - 1 are refused: the JSON parser has already rounded them.
 */
export function parseTokenUnits(
  value: unknown,
  invalidError: string = TRADE_RULES.tokenUnits,
  /** Fields beside the detail (e.g. `expected_unit` where a spec text cannot say which unit). */
  extra?: Record<string, unknown>,
): bigint {
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw badRequest(TRADE_RULES.amountUnsafeNumber);
  }
  const parsed = parseDecimal(amountText(value), 0);
  if (parsed.kind === "too-large") throw badRequest(TRADE_RULES.amountTooLarge);
  if (parsed.kind !== "ok" || parsed.scaled <= 0n) throw badRequest(invalidError, extra);
  if (parsed.scaled > U64_MAX) throw badRequest(TRADE_RULES.amountTooLarge);
  return parsed.scaled;
}

/**
 * Parses a whole-token amount (`amount_tokens`: "1.5") into atomic units with the mint's `decimals`; positive,
 * at most `decimals` places, fitting a u64 (issue 30).
 */
export function parseWholeTokens(value: unknown, decimals: number): bigint {
  const parsed = parseDecimal(amountText(value, TRADE_RULES.amountTokensInvalid), decimals);
  switch (parsed.kind) {
    case "invalid":
      throw badRequest(TRADE_RULES.amountTokensInvalid);
    case "too-precise":
      throw badRequest(TRADE_RULES.amountTokensDecimals(decimals));
    case "too-large":
      throw badRequest(TRADE_RULES.amountTooLarge);
    case "ok":
      if (parsed.scaled <= 0n) throw badRequest(TRADE_RULES.amountTokensPositive);
      if (parsed.scaled > U64_MAX) throw badRequest(TRADE_RULES.amountTooLarge);
      return parsed.scaled;
  }
}

/** Checks an `amount_tokens` text before the mint is read (a number or a plain decimal string). */
export function checkWholeTokensText(value: unknown): string {
  const text = amountText(value, TRADE_RULES.amountTokensInvalid);
  if (parseDecimal(text, 30).kind === "invalid") throw badRequest(TRADE_RULES.amountTokensInvalid);
  return text;
}

/**
 * Parses a non-negative integer field sent as a JSON safe integer or a string of up to 20 digits; upper
 * bounds are the caller's, since their texts differ per field.
 */
export function parseNonNegativeInteger(value: unknown, errorText: string): bigint {
  let n: bigint;
  if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^\s*\d{1,20}\s*$/.test(value)) n = BigInt(value.trim());
  else throw badRequest(errorText);
  if (n < 0n) throw badRequest(errorText);
  return n;
}

/** Options of parsePercent. */
export interface PercentOptions {
  readonly maxDecimals: number;
  readonly invalid?: string;
  readonly decimals?: string;
}

/**
 * Parses a percent text (with or without a trailing "%") into units of 10^-maxDecimals percent
 * (hundredths for maxDecimals 2). Range checks are the caller's: the limits differ per field.
 */
export function parsePercent(text: string, opts: PercentOptions): bigint {
  const body = text.trim().endsWith("%") ? text.trim().slice(0, -1) : text;
  const parsed = parseDecimal(body, opts.maxDecimals);
  if (parsed.kind === "too-precise") throw badRequest(opts.decimals ?? TRADE_RULES.amountInvalid);
  if (parsed.kind !== "ok") throw badRequest(opts.invalid ?? TRADE_RULES.amountInvalid);
  return parsed.scaled;
}

/** True when a trade amount is a percentage (a string ending in "%"). */
export function isPercentText(value: unknown): value is string {
  return typeof value === "string" && value.trim().endsWith("%");
}

/** Hundredths of a percent in 100 %. */
export const FULL_PERCENT_HUNDREDTHS = 10_000n;

/** Parses a percentage-sell amount ("25%", "100%", "0.01%") into hundredths of a percent: > 0, ≤ 100, ≤ 2 decimals. */
export function parseSellPercent(text: string): bigint {
  const hundredths = parsePercent(text, { maxDecimals: 2, decimals: TRADE_RULES.percentDecimals });
  if (hundredths <= 0n || hundredths > FULL_PERCENT_HUNDREDTHS) throw badRequest(TRADE_RULES.percentRange);
  return hundredths;
}

/** Token units of a percentage sell: floor(balance × hundredths / 10000), so it never exceeds the balance. */
export function percentOfBalance(balance: bigint, hundredths: bigint): bigint {
  return (balance * hundredths) / FULL_PERCENT_HUNDREDTHS;
}

/** Formats an integer amount with `decimals` fixed decimals ("0.000000001"); keeps the sign. */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  return `${negative ? "-" : ""}${whole}${decimals > 0 ? `.${frac}` : ""}`;
}

/** SOL text of lamports without trailing zeros ("0.01", "1"), for policy and limit messages. */
export function solText(lamports: bigint): string {
  return formatUnits(lamports, SOL_DECIMALS).replace(/\.?0+$/, "");
}

/** Formats lamports as SOL with always 9 decimals, for the spec's `*_sol` fields. */
export function formatLamportsAsSol(lamports: bigint): string {
  return formatUnits(lamports, SOL_DECIMALS);
}
