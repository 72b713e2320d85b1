/** Request and response types of the client, derived from the generated OpenAPI types (never hand-written). */
import type { Amount } from "./amounts.js";
import type { paths } from "./generated/openapi.js";
import type { WithBigints } from "./json.js";

type JsonOf<T> = T extends { content: { "application/json": infer R } } ? R : never;
type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
/** The 200 body of an operation, lamport fields as bigint. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = Exclude<
  Operation<P, M> extends { responses: { 200: infer R } } ? WithBigints<JsonOf<R>> : never,
  { dry_run: true }
>;
/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The query parameters of an operation. */
export type Query<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Replaces the amount fields K of T by `Amount` (exact text or a bigint of base units). */
type WithAmounts<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: undefined extends T[P] ? Amount | undefined : Amount;
};

export type SetupResult = Ok<"/v1/laser/setup", "post">;
export type Wallet = Ok<"/v1/wallets", "get">[number];
export type CreatedWallet = Ok<"/v1/wallets", "post">;
export type ImportWalletInput = Body<"/v1/wallets/import", "post">;
export type DelinkResult = Ok<"/v1/wallets/{public_key}", "delete">;
export type WalletBalances = Ok<"/v1/wallets/{public_key}/balances", "get">;
/** A wallet with its durable nonce account (raced trades). */
export type WalletDetail = Ok<"/v1/wallets/{public_key}", "get">;

type TradeBody = Body<"/v1/trades/execute", "post">;
/** A buy: `amount` is SOL unless `denominated_in_sol` is false (then token atomic units); a bigint is base units. */
export type BuyInput = Omit<TradeBody, "action" | "amount" | "amount_tokens"> & { amount: Amount };
/** Issue 30: an atomic `amount`, or whole tokens as `amount_tokens` ("1.5", decimals read from the mint). */
type AmountOrWholeTokens =
  { amount: Amount; amount_tokens?: undefined } | { amount?: undefined; amount_tokens: string | number };
/** A sell: `amount` is token atomic units, or a percentage text such as "50%". */
export type SellInput = Omit<TradeBody, "action" | "denominated_in_sol" | "amount" | "amount_tokens"> &
  AmountOrWholeTokens;
export type TradeResult = Ok<"/v1/trades/execute", "post">;
/** A trade built for an outside wallet (`public_key`): the trade's fields; `amount` as in buy/sell. */
export type BuildInput = Omit<Body<"/v1/trades/build", "post">, "amount"> & { amount?: Amount };
/** The unsigned transaction (base64) with the quote, bounds, fee and tip it carries. */
export type BuildResult = Ok<"/v1/trades/build", "post">;
/** A built transaction signed by its outside wallet (base64), sent through the service. */
export type SendInput = Body<"/v1/transactions/send", "post">;
export type SendResult = Ok<"/v1/transactions/send", "post">;
/** The outside wallet (`public_key`) whose durable nonce account raced builds advance. */
export type NonceAccountInput = Body<"/v1/nonce-accounts/build", "post">;
/** Its nonce account as it is, or the unsigned transaction creating it (sign it and send it yourself). */
export type NonceAccountResult = Ok<"/v1/nonce-accounts/build", "post">;
/** A quote (issue 22): `amount` as a trade's; `slippage` percent (number or text). */
export type QuoteInput = {
  mint: string;
  side: "buy" | "sell";
  amount: Amount;
  denominated_in_sol?: boolean;
  slippage?: string | number;
  slippage_bps?: number;
  pool?: string;
};
export type QuoteResult = Ok<"/v1/quote", "get">;

/** Token creation: `initial_buy` is SOL (a bigint is lamports). */
export type CreateTokenInput = WithAmounts<Body<"/v1/laser/create", "post">, "initial_buy">;
export type CreateTokenResult = Ok<"/v1/laser/create", "post">;

type BundleBody = Body<"/v1/laser/bundle", "post">;
/** A bundle leg: SOL amounts for SOL-denominated buys and initial_buy, token units otherwise. */
export type BundleLegInput = WithAmounts<BundleBody["accounts"][number], "amount" | "initial_buy">;
export type BundleInput = WithAmounts<Omit<BundleBody, "accounts">, "bundleTip"> & {
  accounts: BundleLegInput[];
};
export type BundleResult = Ok<"/v1/laser/bundle", "post">;

/** Issue 32: a token creation built for an outside wallet (`public_key`); `initial_buy` is SOL. */
export type CreateBuildInput = WithAmounts<Body<"/v1/laser/create/build", "post">, "initial_buy">;
/** The creation signed by its fresh mint only (base64): the outside wallet signs it and passes it to `send`. */
export type CreateBuildResult = Ok<"/v1/laser/create/build", "post">;
type BundleBuildBody = Body<"/v1/laser/bundle/build", "post">;
/** Issue 32: a bundle built for outside wallets (each leg's `wallet`, or `public_key`); amounts as a bundle's. */
export type BundleBuildInput = WithAmounts<Omit<BundleBuildBody, "accounts">, "bundleTip"> & {
  accounts: BundleLegInput[];
};
/** One unsigned transaction per leg: each signed by its wallet, all passed together to `send` as `transactions`. */
export type BundleBuildResult = Ok<"/v1/laser/bundle/build", "post">;

export type CashbackCheckInput = Body<"/v1/cashback/check", "post">;
export type CashbackCheckResult = Ok<"/v1/cashback/check", "post">;
export type CashbackClaimInput = Body<"/v1/cashback/claim/execute", "post">;
export type CashbackClaimResult = Ok<"/v1/cashback/claim/execute", "post">;

/** A transfer: `amount` is SOL when mint is omitted or "SOL", else token atomic units. */
export type TransferInput = WithAmounts<
  Omit<Body<"/v1/sol/transfer/execute", "post">, "amount" | "amount_tokens">,
  "fee_reserve_lamports"
> &
  AmountOrWholeTokens;
export type TransferResult = Ok<"/v1/sol/transfer/execute", "post">;
type SplitBody = Body<"/v1/sol/split/execute", "post">;
export type SplitDestinationInput = WithAmounts<SplitBody["destinations"][number], "sol">;
export type SplitInput = WithAmounts<Omit<SplitBody, "destinations">, "fee_reserve_lamports"> & {
  destinations: SplitDestinationInput[];
};
export type SplitResult = Ok<"/v1/sol/split/execute", "post">;
export type ConsolidateInput = WithAmounts<
  Body<"/v1/sol/consolidate/execute", "post">,
  "fee_reserve_lamports"
>;
export type ConsolidateResult = Ok<"/v1/sol/consolidate/execute", "post">;

export type ExecutionsQuery = Query<"/v1/executions", "get">;
export type ExecutionsPage = Ok<"/v1/executions", "get">;
export type Execution = ExecutionsPage["executions"][number];

/** Per-call options. */
export interface CallOptions {
  /** Idempotency-Key of an execution call; a random one is generated per call when omitted. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

// Issue 20: webhooks.
type Created<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: { 201: infer R } } ? JsonOf<R> : never;
type Accepted<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: { 202: infer R } } ? JsonOf<R> : never;
export type WebhookInput = Body<"/v1/webhooks", "post">;
export type CreatedWebhook = Created<"/v1/webhooks", "post">;
export type WebhookList = Ok<"/v1/webhooks", "get">;
export type WebhookDelivery = Accepted<"/v1/webhooks/{id}/test", "post">;
export type WebhookDeliveries = Ok<"/v1/webhooks/{id}/deliveries", "get">;
// ---- Issue 19: keys, policies, account freeze, activity log ----
type CreatedOf<R> = R extends { responses: { 201: infer C } } ? WithBigints<JsonOf<C>> : never;
export type KeyScope = "read" | "trade" | "create" | "transfer" | "wallets" | "keys";
export type CreateKeyInput = Body<"/v1/keys", "post">;
/** A new sub-key; `api_key` is shown only here. */
export type CreatedKey = CreatedOf<Operation<"/v1/keys", "post">>;
export type Key = Ok<"/v1/keys", "get">["keys"][number];
export type PolicyInput = Body<"/v1/keys/{id}/policy", "put">;
export type ActivityQuery = Query<"/v1/activity", "get">;
export type ActivityPage = Ok<"/v1/activity", "get">;

// Issue 19: dry runs of the execution endpoints.
/** The execution endpoints, each of which accepts `dry_run`. */
export type ExecutionPath =
  | "/v1/trades/execute"
  | "/v1/laser/create"
  | "/v1/laser/bundle"
  | "/v1/cashback/claim/execute"
  | "/v1/sol/transfer/execute"
  | "/v1/sol/consolidate/execute"
  | "/v1/sol/split/execute";
/** What a dry run would send, the policy verdict and the simulation logs; nothing was sent or recorded. */
export type DryRunResult = Extract<
  JsonOf<paths["/v1/trades/execute"]["post"]["responses"][200]>,
  { dry_run: true }
>;

// issue 18: warm venue state
/** The landing routes and their figures (GET /v1/routes). */
export type RoutesResult = Ok<"/v1/routes", "get">;
/** An order (POST, GET and DELETE /v1/orders…). */
export type Order = Ok<"/v1/orders/{id}", "get">;
export type OrderList = Ok<"/v1/orders", "get">;
export type OrderListQuery = Query<"/v1/orders", "get">;
export type OrderFiresQuery = Query<"/v1/orders/{id}/fires", "get">;
export type OrderFiresPage = Ok<"/v1/orders/{id}/fires", "get">;
export type OrderFire = OrderFiresPage["fires"][number];
/** The body of POST /v1/orders (kind, mint, level, amount, fees, expiry; `dry_run`). */
export type OrderInput = Body<"/v1/orders", "post">;

/** The watched mints (POST and GET /v1/watch). */
export type WatchResult = Ok<"/v1/watch", "get">;
export type UnwatchResult = Ok<"/v1/watch/{mint}", "delete">;

// Issue 33: positions and PnL (amounts are decimal strings on the wire and stay strings here).
export type PositionsQuery = Query<"/v1/positions", "get">;
export type PositionsPage = Ok<"/v1/positions", "get">;
export type Position = PositionsPage["positions"][number];
export type PnlQuery = Query<"/v1/pnl", "get">;
export type PnlReport = Ok<"/v1/pnl", "get">;
