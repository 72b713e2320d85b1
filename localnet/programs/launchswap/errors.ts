/** The swap program's own error codes (IDL `errors`) and how an instruction fails with one. */
import { ProgramFailure } from "../types.js";
import { SWAP_IDL } from "./codec.js";

/** Swap program error codes (IDL `errors`). */
export const SWAP_ERR = {
  ZeroBaseAmount: 6001,
  ZeroQuoteAmount: 6002,
  ExceededSlippage: 6004,
  InvalidProtocolFeeRecipient: 6013,
  BuyMoreBaseAmountThanPoolReserves: 6016,
  DisabledBuy: 6020,
  DisabledSell: 6021,
  BuyNotEnoughQuoteTokensToCoverFees: 6039,
  BuySlippageBelowMinBaseAmountOut: 6040,
  CashbackNotEnabled: 6049,
  TokensInVaultLessThanCashbackEarned: 6052,
  BuybackFeeRecipientNotAuthorized: 6053,
  BuybackFeeRecipientMissing: 6058,
  InvalidCashbackAccumulator: 6060,
  InvalidCashbackAccumulatorAta: 6061,
  InvalidPoolV2: 6062,
} as const;

/** Errors the October 2026 upgrade added (idl/pump_amm.json), absent from the installed SDK's IDL. */
const UPGRADE_ERRORS: [number, { name: string; msg: string }][] = [
  [6079, { name: "CashbackCoinNotSupported", msg: "Cashback coins are not supported by this instruction" }],
  [6081, { name: "CreatorFeesNotSwept", msg: "Creator fees must be swept first" }],
];

const IDL_ERRORS = new Map<number, { name: string; msg: string }>([
  ...(SWAP_IDL.errors ?? []).map((e): [number, { name: string; msg: string }] => [
    e.code,
    { name: e.name, msg: e.msg ?? e.name },
  ]),
  ...UPGRADE_ERRORS,
]);

/** Fails with a swap program error from the IDL (message = anchor-lang's log text). */
export function swapFail(code: number): never {
  const e = IDL_ERRORS.get(code) ?? { name: `Custom${code}`, msg: "program error" };
  throw new ProgramFailure(
    code,
    `AnchorError occurred. Error Code: ${e.name}. Error Number: ${code}. Error Message: ${e.msg}.`,
  );
}
