/** The consolidate request (spec 4.8): destination, optional source list, fee reserve, confirm. */
import { type Address, parseAddress } from "../../core/addresses.js";
import { parseBooleanField, type RequestBody } from "../../core/request-fields.js";
import { ApiError, badRequest, HARDENING, SPEC, TRADE_RULES, SOL_RULES } from "../../core/errors.js";
import { checkNotReserved } from "./reserved-addresses.js";
import { parseFeeReserveLamports } from "./reserve.js";

/** Most source wallets one consolidation may name. */
const MAX_CONSOLIDATION_SOURCES = 50;

/** A validated consolidate request; `sources` undefined means every active wallet except the destination. */
export interface ConsolidateRequest {
  destination: Address;
  sources?: Address[];
  feeReserveLamports: bigint;
  confirm: boolean;
}

/** Parses `POST /v1/sol/consolidate/execute`'s body, or throws the spec's 400. */
export function parseConsolidateRequest(body: RequestBody): ConsolidateRequest {
  const destination = parseAddress(body.destination_wallet, SPEC.consolidate.invalidDestination);
  const raw = body.source_wallets;
  let sources: Address[] | undefined;
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_CONSOLIDATION_SOURCES) {
      throw badRequest(SPEC.consolidate.sourcesCount);
    }
    sources = raw.map((s: unknown) => parseAddress(s, SOL_RULES.sourceInvalid));
    if (new Set(sources).size !== sources.length) throw badRequest(SPEC.consolidate.sourcesUnique);
    if (sources.includes(destination)) throw badRequest(SPEC.consolidate.destinationIsSource);
  }
  const feeReserveLamports = parseFeeReserveLamports(body.fee_reserve_lamports);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  // Last, so a body with a spec-listed fault gets the spec's text; still before anything is signed.
  checkNotReserved(destination, SOL_RULES.destinationReserved);
  return { destination, ...(sources === undefined ? {} : { sources }), feeReserveLamports, confirm };
}

/**
 * The default source list: the key's active wallets except the destination, in the order given; the spec's
 * 404 when none is left.
 */
export function defaultConsolidationSources(
  activeWallets: readonly Address[],
  destination: Address,
): Address[] {
  const sources = activeWallets.filter((w) => w !== destination);
  if (sources.length === 0) throw new ApiError(404, SPEC.consolidate.noSources);
  // The named list's cap holds for the default one too: one request never signs more than 50 transactions.
  if (sources.length > MAX_CONSOLIDATION_SOURCES) throw badRequest(HARDENING.defaultSourcesCount);
  return sources;
}
