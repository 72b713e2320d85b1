/** The send-asset request (spec 4.9): native SOL or a fungible token to any address. */
import { type Address, parseAddress } from "../../core/addresses.js";
import { amountText, checkWholeTokensText, parseSolAmount, parseTokenUnits } from "../../core/amounts.js";
import { parseBooleanField, parseOptionalWallet, type RequestBody } from "../../core/request-fields.js";
import { badRequest, SPEC, TRADE_RULES, SOL_RULES } from "../../core/errors.js";
import { checkNotReserved } from "./reserved-addresses.js";
import { parseFeeReserveLamports } from "./reserve.js";

/** What is sent: native SOL in lamports, or token atomic units of a mint (its program and decimals read later). */
export type TransferAsset =
  | { kind: "sol"; lamports: bigint }
  /** `units` from `amount`; or `wholeTokens` from `amount_tokens` (issue 30), resolved with the mint's decimals. */
  | { kind: "token"; mint: Address; units: bigint; wholeTokens?: undefined }
  | { kind: "token"; mint: Address; units?: undefined; wholeTokens: string };

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
  const { amount, amount_tokens: tokens } = body;
  const hasAmount = amount !== undefined && amount !== null;
  const hasTokens = tokens !== undefined && tokens !== null;
  if (hasAmount && hasTokens) throw badRequest(TRADE_RULES.amountAndTokens);
  if (!hasAmount && !hasTokens) throw badRequest(TRADE_RULES.amountRequired);
  let text: string;
  let asset: TransferAsset;
  if (isNativeSol(body.mint)) {
    if (hasTokens) throw badRequest(TRADE_RULES.amountTokensOnSol);
    text = amountText(amount);
    asset = { kind: "sol", lamports: parseSolAmount(amount) };
  } else {
    const mint = parseAddress(body.mint, SPEC.transfer.invalidMint);
    if (hasTokens) {
      text = checkWholeTokensText(tokens);
      asset = { kind: "token", mint, wholeTokens: text };
    } else {
      text = amountText(amount);
      // The spec's text stays the detail; which unit `amount` is in goes beside it.
      const units = parseTokenUnits(amount, SPEC.transfer.tokenAmount, {
        expected_unit: TRADE_RULES.atomicUnitsHint,
      });
      asset = { kind: "token", mint, units };
    }
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
