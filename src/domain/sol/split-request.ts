/** The split request (spec 4.10): up to five destinations with sol, percent or equal-share entries. */
import { type Address, parseAddress } from "../../core/addresses.js";
import { amountText, FULL_PERCENT_HUNDREDTHS, parsePercent, parseSolAmount } from "../../core/amounts.js";
import {
  isPresent,
  parseBooleanField,
  parseOptionalWallet,
  type RequestBody,
} from "../../core/request-fields.js";
import { badRequest, SPEC, TRADE_RULES, SOL_RULES } from "../../core/errors.js";
import { checkNotReserved } from "./reserved-addresses.js";
import { parseFeeReserveLamports } from "./reserve.js";
import { checkPercentSum, type SplitDestination } from "./split-allocation.js";

/** Most destinations one split may name. */
const MAX_SPLIT_DESTINATIONS = 5;

/** A validated split request; `source` undefined means the key's default wallet. */
export interface SplitRequest {
  source?: Address;
  totalPercentHundredths: bigint;
  destinations: SplitDestination[];
  feeReserveLamports: bigint;
  confirm: boolean;
}

function parseTotalPercent(value: unknown): bigint {
  if (!isPresent(value)) return FULL_PERCENT_HUNDREDTHS;
  const text = amountText(value, SPEC.split.totalPercent);
  const hundredths = parsePercent(text, {
    maxDecimals: 2,
    invalid: SPEC.split.totalPercent,
    decimals: SOL_RULES.totalPercentDecimals,
  });
  if (hundredths <= 0n || hundredths > FULL_PERCENT_HUNDREDTHS) throw badRequest(SPEC.split.totalPercent);
  return hundredths;
}

function parseDestination(entry: unknown): SplitDestination {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw badRequest(SOL_RULES.destinationObject);
  }
  const { wallet: rawWallet, sol, percent } = entry as Record<string, unknown>;
  if (!isPresent(rawWallet)) throw badRequest(SOL_RULES.destinationObject);
  const wallet = parseAddress(rawWallet, SPEC.consolidate.invalidDestination);
  if (isPresent(sol) && isPresent(percent)) throw badRequest(SPEC.split.percentOrSol);
  if (isPresent(sol)) {
    const lamports = parseSolAmount(sol, {
      type: SOL_RULES.destinationSolInvalid,
      invalid: SOL_RULES.destinationSolInvalid,
      // A zero fixed entry would transfer nothing: the spec's "at least one lamport" rule.
      positive: SPEC.split.minLamport,
    });
    return { wallet, mode: "fixed", lamports };
  }
  if (isPresent(percent)) {
    const text = amountText(percent, SOL_RULES.destinationPercentInvalid);
    const hundredths = parsePercent(text, {
      maxDecimals: 2,
      invalid: SOL_RULES.destinationPercentInvalid,
      decimals: SOL_RULES.destinationPercentDecimals,
    });
    if (hundredths <= 0n) throw badRequest(SOL_RULES.destinationPercentInvalid);
    if (hundredths > FULL_PERCENT_HUNDREDTHS) throw badRequest(SPEC.split.percentOver);
    return { wallet, mode: "percent", hundredths };
  }
  return { wallet, mode: "equal" };
}

/** Parses `POST /v1/sol/split/execute`'s body, or throws the spec's 400. */
export function parseSplitRequest(body: RequestBody): SplitRequest {
  const source = parseOptionalWallet(body.source_wallet);
  const totalPercentHundredths = parseTotalPercent(body.total_percent);
  const raw = body.destinations;
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_SPLIT_DESTINATIONS) {
    throw badRequest(SPEC.split.destinationsCount);
  }
  const destinations = raw.map(parseDestination);
  checkPercentSum(destinations);
  if (source !== undefined) checkSplitDestinations(source, destinations);
  else checkUniqueDestinations(destinations);
  const feeReserveLamports = parseFeeReserveLamports(body.fee_reserve_lamports);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  // Last, so a body with a spec-listed fault gets the spec's text; still before anything is signed.
  for (const d of destinations) checkNotReserved(d.wallet, SOL_RULES.splitDestinationReserved);
  return {
    ...(source === undefined ? {} : { source }),
    totalPercentHundredths,
    destinations,
    feeReserveLamports,
    confirm,
  };
}

function checkUniqueDestinations(destinations: readonly SplitDestination[]): void {
  if (new Set(destinations.map((d) => d.wallet)).size !== destinations.length) {
    throw badRequest(SPEC.split.destinationsUnique);
  }
}

/** The spec's 400s for a destination equal to the source or repeated (call again once the default is resolved). */
export function checkSplitDestinations(source: string, destinations: readonly SplitDestination[]): void {
  if (destinations.some((d) => d.wallet === source)) throw badRequest(SPEC.split.destinationIsSource);
  checkUniqueDestinations(destinations);
}
