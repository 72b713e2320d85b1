/**
 * Pure quote and fee math of the swap program, in bigint, following the SDK's fee math
 * (launch-programs.md B.2): fee tiers by market cap on the live base supply, `fee = ceil`, creator
 * fee only when the pool has a coin creator, and the buyback split of the protocol fee.
 */

/** Fee rates in basis points. */
export interface FeeRates {
  lpBps: bigint;
  protocolBps: bigint;
  creatorBps: bigint;
}

/** One market-cap tier of a FeeConfig. */
export interface FeeTierRates {
  threshold: bigint;
  fees: FeeRates;
}

/** The parts of a FeeConfig the fee selection reads. */
export interface FeeSchedule {
  flat: FeeRates;
  tiers: FeeTierRates[];
  stableTiers: FeeTierRates[];
  exoticFlat: FeeRates;
}

/** What the fee selection needs to know about the pool. */
export interface FeeContext {
  /** `null` when no FeeConfig account exists: the GlobalConfig rates apply. */
  schedule: FeeSchedule | null;
  globalRates: FeeRates;
  creatorFeeConfigurable: boolean;
  poolCreatorFeeBps: bigint;
  isCanonical: boolean;
  quoteKind: "sol" | "stable" | "other";
  isMayhemMode: boolean;
  baseMintSupply: bigint;
  baseReserve: bigint;
  /** Quote vault balance plus the pool's virtual quote reserves. */
  effectiveQuoteReserve: bigint;
}

const BPS = 10_000n;
/** Supply the SDK uses for mayhem pools' market cap. */
const MAYHEM_SUPPLY = 1_000_000_000_000_000n;

/** `ceil(a / b)` for non-negative a and positive b. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** `ceil(amount * bps / 10_000)`: the SDKs' fee rounding. */
export function fee(amount: bigint, bps: bigint): bigint {
  return ceilDiv(amount * bps, BPS);
}

function isZero(f: FeeRates): boolean {
  return f.lpBps === 0n && f.protocolBps === 0n && f.creatorBps === 0n;
}

/** The tier for `marketCap`: tier 0 below its threshold, else the last tier at or below it. */
function selectTier(tiers: FeeTierRates[], marketCap: bigint): FeeRates {
  const first = tiers[0];
  if (!first) throw new Error("fee tiers cannot be empty");
  if (marketCap < first.threshold) return first.fees;
  for (let i = tiers.length - 1; i >= 0; i--) {
    const t = tiers[i]!;
    if (marketCap >= t.threshold) return t.fees;
  }
  return first.fees;
}

/** Fee rates of a trade, as the SDK's computeFeesBps selects them. */
export function feeRates(ctx: FeeContext): FeeRates {
  if (!ctx.schedule) return ctx.globalRates;
  const s = ctx.schedule;
  const supply = ctx.isMayhemMode ? MAYHEM_SUPPLY : ctx.baseMintSupply;
  const marketCap = (ctx.effectiveQuoteReserve * supply) / ctx.baseReserve;
  let rates: FeeRates;
  if (!ctx.isCanonical) rates = s.flat;
  else if (ctx.quoteKind === "sol") rates = selectTier(s.tiers, marketCap);
  else if (ctx.quoteKind === "stable")
    rates = selectTier(s.stableTiers.length > 0 ? s.stableTiers : s.tiers, marketCap);
  else rates = isZero(s.exoticFlat) ? s.flat : s.exoticFlat;
  if (ctx.creatorFeeConfigurable && ctx.poolCreatorFeeBps > 0n)
    return { ...rates, creatorBps: ctx.poolCreatorFeeBps };
  return rates;
}

/** Fee amounts of one trade. `protocol` includes `buyback` (the buyback part is split off it). */
export interface FeeAmounts {
  lp: bigint;
  protocol: bigint;
  buyback: bigint;
  creator: bigint;
}

/**
 * Fees on `amount`. Creator fee only when the pool has a coin creator. The buyback share is
 * `floor(protocol * buybackBps / 10_000)` of the protocol fee (open question F.1; our choice).
 */
function feeAmounts(
  amount: bigint,
  rates: FeeRates,
  hasCoinCreator: boolean,
  buybackBps: bigint,
): FeeAmounts {
  const protocol = fee(amount, rates.protocolBps);
  return {
    lp: fee(amount, rates.lpBps),
    protocol,
    buyback: (protocol * buybackBps) / BPS,
    creator: hasCoinCreator ? fee(amount, rates.creatorBps) : 0n,
  };
}

/** Result of pricing a buy. `quoteIn` is what the curve math routes into the pool before fees. */
export interface BuyQuote {
  baseOut: bigint;
  quoteIn: bigint;
  fees: FeeAmounts;
  /** quoteIn + lp + protocol + creator: what the user pays. */
  total: bigint;
}

/** `buy(base_out)`: quoteIn = ceil(effQ * base / (B - base)). Caller checks base < B. */
export function quoteBuyBaseOut(
  baseOut: bigint,
  baseReserve: bigint,
  effQ: bigint,
  rates: FeeRates,
  hasCoinCreator: boolean,
  buybackBps: bigint,
): BuyQuote {
  const quoteIn = ceilDiv(effQ * baseOut, baseReserve - baseOut);
  const fees = feeAmounts(quoteIn, rates, hasCoinCreator, buybackBps);
  return { baseOut, quoteIn, fees, total: quoteIn + fees.lp + fees.protocol + fees.creator };
}

/**
 * `buy_exact_quote_in(spendable)`: eff = floor(q*10_000/(10_000+total bps)), reduced by any fee
 * rounding excess; base = floor(B*(eff-1)/(effQ+eff-1)) (the SDK's buyQuoteInput). Returns null
 * when the budget cannot cover fees (eff <= 1).
 */
export function quoteBuyExactQuoteIn(
  spendable: bigint,
  baseReserve: bigint,
  effQ: bigint,
  rates: FeeRates,
  hasCoinCreator: boolean,
  buybackBps: bigint,
): BuyQuote | null {
  const totalBps = rates.lpBps + rates.protocolBps + (hasCoinCreator ? rates.creatorBps : 0n);
  let eff = (spendable * BPS) / (BPS + totalBps);
  const first = feeAmounts(eff, rates, hasCoinCreator, buybackBps);
  const withFees = eff + first.lp + first.protocol + first.creator;
  if (withFees > spendable) eff -= withFees - spendable;
  if (eff <= 1n) return null;
  const fees = feeAmounts(eff, rates, hasCoinCreator, buybackBps);
  const baseOut = (baseReserve * (eff - 1n)) / (effQ + eff - 1n);
  return { baseOut, quoteIn: eff, fees, total: eff + fees.lp + fees.protocol + fees.creator };
}

/** Result of pricing a sell. */
export interface SellQuote {
  quoteOut: bigint;
  fees: FeeAmounts;
  /** quoteOut - lp - protocol - creator: what the user receives. */
  userOut: bigint;
}

/** `sell(base_in)`: qOut = floor(effQ * b / (B + b)); fees on qOut. */
export function quoteSellBaseIn(
  baseIn: bigint,
  baseReserve: bigint,
  effQ: bigint,
  rates: FeeRates,
  hasCoinCreator: boolean,
  buybackBps: bigint,
): SellQuote {
  const quoteOut = (effQ * baseIn) / (baseReserve + baseIn);
  const fees = feeAmounts(quoteOut, rates, hasCoinCreator, buybackBps);
  return { quoteOut, fees, userOut: quoteOut - fees.lp - fees.protocol - fees.creator };
}
