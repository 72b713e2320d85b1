/** The client's groups that move SOL and tokens out of trading: `cashback` (check, claim) and `sol` (transfer, split, consolidate). */
import { solText, unitsText } from "../amounts.js";
import { defined, exec, optional, unwrap, type Http } from "../call.js";
import { READ_ONLY_HEADER } from "../retry.js";
import type * as T from "../types.js";

/** The `cashback` methods of a client on `http`. */
export function cashbackResource(http: Http) {
  return {
    /** Claimable cashback of any wallets (read-only; the default wallet when none is named). */
    check: (input: T.CashbackCheckInput = {}): Promise<T.CashbackCheckResult> =>
      unwrap(
        http.POST("/v1/cashback/check", {
          body: input,
          parseAs: "text",
          headers: { [READ_ONLY_HEADER]: "1" },
        }),
      ),
    /** Claims a managed wallet's cashback (one transaction per source with something to claim). */
    claim: (input: T.CashbackClaimInput = {}, options: T.CallOptions = {}): Promise<T.CashbackClaimResult> =>
      unwrap(http.POST("/v1/cashback/claim/execute", { body: input, ...exec(options) })),
  };
}

/** True when a transfer moves native SOL (mint omitted or "SOL"). */
function isNativeMint(mint: string | undefined): boolean {
  return mint === undefined || mint.toUpperCase() === "SOL";
}

/** The `sol` methods of a client on `http`. */
export function solResource(http: Http) {
  return {
    /** Sends SOL (amount in SOL, bigint: lamports) or a token (mint given; amount in atomic units). */
    transfer: (input: T.TransferInput, options: T.CallOptions = {}): Promise<T.TransferResult> =>
      unwrap(
        http.POST("/v1/sol/transfer/execute", {
          body: defined({
            ...input,
            amount: optional(input.amount, isNativeMint(input.mint) ? solText : unitsText),
            fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText),
          }),
          ...exec(options),
        }),
      ),
    /** Splits a wallet's SOL across up to five destinations in one transaction. */
    split: (input: T.SplitInput, options: T.CallOptions = {}): Promise<T.SplitResult> =>
      unwrap(
        http.POST("/v1/sol/split/execute", {
          body: defined({
            ...input,
            fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText),
            destinations: input.destinations.map((d) => defined({ ...d, sol: optional(d.sol, solText) })),
          }),
          ...exec(options),
        }),
      ),
    /** Sweeps SOL from managed wallets into one destination (one transaction per source). */
    consolidate: (input: T.ConsolidateInput, options: T.CallOptions = {}): Promise<T.ConsolidateResult> =>
      unwrap(
        http.POST("/v1/sol/consolidate/execute", {
          body: defined({ ...input, fee_reserve_lamports: optional(input.fee_reserve_lamports, unitsText) }),
          ...exec(options),
        }),
      ),
  };
}
