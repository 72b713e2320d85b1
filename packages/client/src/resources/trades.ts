/** The client's trading groups: `trades` (buy, quote, sell, build, send), `tokens`, `bundles` (+ build). */
import { solText, unitsText } from "../amounts.js";
import { defined, exec, optional, unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `trades` methods of a client on `http`. */
export function tradesResource(http: Http) {
  return {
    /** Buys a token: `amount` in SOL (bigint: lamports) unless denominated_in_sol is false (token units). */
    buy: (input: T.BuyInput, options: T.CallOptions = {}): Promise<T.TradeResult> => {
      const amount = input.denominated_in_sol === false ? unitsText(input.amount) : solText(input.amount);
      return unwrap(
        http.POST("/v1/trades/execute", {
          body: defined({ ...input, action: "buy" as const, amount }),
          ...exec(options),
        }),
      );
    },
    /**
     * Prices a buy or sell without a wallet (GET /v1/quote): venue, tokens and lamports in and out, slippage
     * bounds, each fee and the price impact. `amount` as in buy/sell: SOL for a buy (bigint: lamports) unless
     * denominated_in_sol is false, token atomic units for a sell (no percentages: they need a wallet).
     */
    quote: (input: T.QuoteInput): Promise<T.QuoteResult> => {
      const inSol = input.side === "buy" && input.denominated_in_sol !== false;
      const query = defined({
        ...input,
        amount: inSol ? solText(input.amount) : unitsText(input.amount),
        slippage: optional(input.slippage, String),
      });
      return unwrap(http.GET("/v1/quote", { params: { query }, parseAs: "text" }));
    },
    /**
     * Builds a buy or sell for an outside wallet (`public_key`): an unsigned transaction (base64) to sign and
     * pass to `send`. `amount` as in buy (SOL unless denominated_in_sol is false) or sell (token units).
     */
    build: (input: T.BuildInput, options: T.CallOptions = {}): Promise<T.BuildResult> => {
      const inSol = input.action === "buy" && input.denominated_in_sol !== false;
      return unwrap(
        http.POST("/v1/trades/build", {
          body: defined({ ...input, amount: optional(input.amount, inSol ? solText : unitsText) }),
          ...exec(options),
        }),
      );
    },
    /**
     * Sends what outside wallets signed: `transaction` (a built trade or create), or `transactions` (a raced
     * build's variants, each raced over its own route, answered with `landed_via`; or every leg of a built
     * bundle, in leg order, sent as one bundle). Answers the recorded execution.
     */
    send: (input: T.SendInput, options: T.CallOptions = {}): Promise<T.SendResult> =>
      unwrap(http.POST("/v1/transactions/send", { body: input, ...exec(options) })),
    /**
     * The outside wallet's durable nonce account, which raced builds (`routes`) advance: as it is, or the unsigned
     * transaction creating it (sign it as fee payer and send it to any RPC).
     */
    nonceAccount: (input: T.NonceAccountInput, options: T.CallOptions = {}): Promise<T.NonceAccountResult> =>
      unwrap(http.POST("/v1/nonce-accounts/build", { body: input, ...exec(options) })),
    /** Sells a token: `amount` in token atomic units, or a percentage text such as "100%". */
    sell: (input: T.SellInput, options: T.CallOptions = {}): Promise<T.TradeResult> =>
      unwrap(
        http.POST("/v1/trades/execute", {
          body: defined({ ...input, action: "sell" as const, amount: optional(input.amount, unitsText) }),
          ...exec(options),
        }),
      ),
  };
}

/** The `tokens` methods of a client on `http`. */
export function tokensResource(http: Http) {
  return {
    /** Launches a token with a server-generated mint, optionally with an atomic developer buy. */
    create: (input: T.CreateTokenInput, options: T.CallOptions = {}): Promise<T.CreateTokenResult> =>
      unwrap(
        http.POST("/v1/laser/create", {
          body: defined({ ...input, initial_buy: optional(input.initial_buy, solText) }),
          ...exec(options),
        }),
      ),
    /**
     * Builds a token creation for an outside wallet (`public_key`: creator and payer): the transaction comes
     * signed by the service's fresh mint, and needs only the outside wallet's signature before `trades.send`.
     */
    build: (input: T.CreateBuildInput, options: T.CallOptions = {}): Promise<T.CreateBuildResult> =>
      unwrap(
        http.POST("/v1/laser/create/build", {
          body: defined({ ...input, initial_buy: optional(input.initial_buy, solText) }),
          ...exec(options),
        }),
      ),
  };
}

function bundleLeg(leg: T.BundleLegInput) {
  const solDenominated = leg.type === "buy" && leg.denominatedInSol !== false;
  return defined({
    ...leg,
    amount: optional(leg.amount, solDenominated ? solText : unitsText),
    initial_buy: optional(leg.initial_buy, solText),
  });
}

/** The `bundles` methods of a client on `http`. */
export function bundlesResource(http: Http) {
  return {
    /** Submits an atomic bundle of 1 to 4 legs; `bundleTip` in SOL (bigint: lamports). */
    submit: (input: T.BundleInput, options: T.CallOptions = {}): Promise<T.BundleResult> =>
      unwrap(
        http.POST("/v1/laser/bundle", {
          body: defined({
            ...input,
            bundleTip: solText(input.bundleTip),
            accounts: input.accounts.map(bundleLeg),
          }),
          ...exec(options),
        }),
      ),
    /**
     * Builds a bundle for outside wallets (each leg's `wallet`, or `public_key`): one unsigned transaction per
     * leg, the tip on the first; sign each with its wallet and pass them all to `trades.send` as `transactions`.
     */
    build: (input: T.BundleBuildInput, options: T.CallOptions = {}): Promise<T.BundleBuildResult> =>
      unwrap(
        http.POST("/v1/laser/bundle/build", {
          body: defined({
            ...input,
            bundleTip: solText(input.bundleTip),
            accounts: input.accounts.map(bundleLeg),
          }),
          ...exec(options),
        }),
      ),
  };
}
