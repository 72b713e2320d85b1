/** The send-asset request (spec 4.9): native SOL or a fungible token to any address. */
import { type Address, parseAddress } from "../../core/addresses.js";
import { amountText, parseSolAmount, parseTokenUnits } from "../../core/amounts.js";
import { parseBooleanField, parseOptionalWallet, type RequestBody } from "../../core/request-fields.js";
import { badRequest, SPEC, TRADE_RULES, SOL_RULES } from "../../core/errors.js";
import { checkNotReserved } from "./reserved-addresses.js";
import { parseFeeReserveLamports } from "./reserve.js";

/** What is sent: native SOL in lamports, or token atomic units of a mint (its program and decimals read later). */
export type TransferAsset =
  { kind: "sol"; lamports: bigint } | { kind: "token"; mint: Address; units: bigint };

/** A validated send-asset request; `source` undefined means the key's default wallet. */
export interface TransferRequest {
  destination: Address;
  source?: Address;
  asset: TransferAsset;
  /** The request amount as text, for the response's `amount`. */
  amountText: string;
  feeReserveLamports: bigint;
  confirm: boolean;
}

/** True when `mint` selects native SOL: omitted, null or the text "SOL". */
function isNativeSol(mint: unknown): boolean {
  return (
    mint === undefined || mint === null || (typeof mint === "string" && mint.trim().toUpperCase() === "SOL")
  );
}

/** Parses `POST /v1/sol/transfer/execute`'s body, or throws the spec's 400. */
export function parseTransferRequest(body: RequestBody): TransferRequest {
  const destination = parseAddress(body.destination_wallet, SPEC.transfer.invalidDestination);
  const source = parseOptionalWallet(body.source_wallet);
  if (source !== undefined) checkTransferEnds(source, destination);
  const { amount } = body;
  if (amount === undefined || amount === null) throw badRequest(TRADE_RULES.amountRequired);
  const text = amountText(amount);
  let asset: TransferAsset;
  if (isNativeSol(body.mint)) {
    asset = { kind: "sol", lamports: parseSolAmount(amount) };
  } else {
    const mint = parseAddress(body.mint, SPEC.transfer.invalidMint);
    asset = { kind: "token", mint, units: parseTokenUnits(amount, SPEC.transfer.tokenAmount) };
  }
  const feeReserveLamports = parseFeeReserveLamports(body.fee_reserve_lamports);
  const confirm = parseBooleanField(body.confirm, true, TRADE_RULES.confirmBoolean);
  // Last, so a body with a spec-listed fault gets the spec's text; still before anything is signed.
  checkNotReserved(destination, SOL_RULES.destinationReserved);
  return {
    destination,
    ...(source === undefined ? {} : { source }),
    asset,
    amountText: text,
    feeReserveLamports,
    confirm,
  };
}

/** The spec's 400 when the destination is the source (call again once the default wallet is resolved). */
export function checkTransferEnds(source: Address, destination: Address): void {
  if (source === destination) throw badRequest(SPEC.transfer.destinationIsSource);
}
