/**
 * One error catalog for the whole API. Every error the service answers with is an ApiError carrying its
 * HTTP status and its exact `detail` text; texts listed in the spec are reproduced verbatim here and
 * nowhere else. The HTTP layer maps ApiError to `{"detail": ...}` in one place.
 */

/** An error that the HTTP layer turns into `{ detail }` with `status`; `extra` fields are added to the body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

/** Builds a 400 with the given detail. */
export const badRequest = (detail: string, extra?: Record<string, unknown>): ApiError =>
  new ApiError(400, detail, extra);

/** Builds a 502 (upstream RPC / relay failure) with the given detail. */
export const upstreamError = (detail: string, extra?: Record<string, unknown>): ApiError =>
  new ApiError(502, detail, extra);

/** Exact detail texts of the spec (section 7), grouped by endpoint. */
export const SPEC = {
  trade: {
    badAction: "action must be buy or sell",
    amountType: "amount must be a number or string",
    solDecimals: "SOL amounts cannot have more than 9 decimal places",
    sellInSol: "sell amount must be denominated in token units",
    slippageBoth: "use either slippage or slippage_bps, not both",
    simulationFailed: "trade simulation failed",
  },
  create: {
    nameSymbol: "name and symbol are required",
    uriRequired: "uri is required and must be externally hosted",
    uriInvalid: "uri must be an absolute https, http, or the service URL",
    initialBuyZero: "initial_buy must be greater than zero",
    initialBuyDecimals: "initial_buy must have at most 9 decimal places",
    slippageWithoutBuy: "slippage is only valid when initial_buy is provided",
    simulationFailed: "token creation simulation failed",
  },
  bundle: {
    legCount: "accounts must contain between 1 and 4 bundle legs",
    mintRequired: "mint is required before buy or sell legs",
    mintWithCreate: "mint must not be supplied with a create leg",
    amountRequired: "amount is required for buy and sell legs",
    newTokenLegs: "new-token bundle legs must be SOL-denominated buys",
    sellAfterCreate: "sell legs are not supported after a create leg",
    oneExistingTrade: "only one trade against an existing token is supported per bundle",
    slippageBpsMax: "slippageBps must not exceed 5000",
    tipMin: "bundleTip must be at least 0.000001 SOL",
    timedOut: "bundle confirmation timed out",
    failed: "bundle failed",
  },
  claim: {
    noneEnabled: "at least one claim type must be enabled",
    walletSelection: "managed wallet selection error",
    readFailed: "cashback RPC read failed",
  },
  check: {
    walletAndWallets: "use either wallet or wallets, not both",
    walletsCount: "wallets must contain between 1 and 100 wallets",
    invalidAddress: "invalid Solana wallet address",
    readFailed: "cashback RPC read failed",
    badOwner: "launch user volume accumulator has an unexpected owner",
    badSwapAccount: "swap cashback account does not match its PDA",
  },
  consolidate: {
    invalidDestination: "invalid destination wallet address",
    sourcesCount: "source_wallets must contain between 1 and 50 wallets",
    sourcesUnique: "source wallets must be unique",
    destinationIsSource: "destination wallet cannot be one of the source wallets",
    /** The spec's text continues with a detail after this prefix. */
    lowBalancePrefix: "source balance is too low after fee reserve: ",
    noSources: "no managed source wallets available",
  },
  transfer: {
    invalidDestination: "invalid destination wallet address",
    destinationIsSource: "destination wallet cannot be the source wallet",
    lowBalance: "source balance is too low after fee reserve",
    invalidMint: "invalid token mint address",
    mintNotFound: "token mint was not found",
    unsupportedMint: "mint must be owned by a supported token program",
    noSourceAccount: "source wallet has no associated token account",
    lowTokenBalance: "source token balance is too low",
    tokenAmount: "token amount must be a positive integer",
  },
  split: {
    destinationsCount: "destinations must contain between 1 and 5 wallets",
    percentOrSol: "each destination must use either percent or sol, not both",
    destinationIsSource: "destination cannot be the source wallet",
    destinationsUnique: "destination wallets must be unique",
    lowBalance: "source balance is too low after fee reserve",
    totalPercent: "total_percent must be greater than 0 and at most 100",
    percentOver: "destination percentages cannot exceed 100",
    amountsExceed: "destination amounts exceed selected transfer total",
    notConsumed: "destination split does not consume selected transfer total",
    minLamport: "each destination must receive at least one lamport",
  },
} as const;

// Texts for cases the spec leaves "not shown", one group per capability; each is documented in docs/decisions.md.

/** Authentication, setup rate limit, wallet endpoints and wallet selection, malformed HTTP requests. */
export const FOUNDATION = {
  apiKeyMissing: "missing x-api-key header",
  apiKeyInvalid: "invalid API key",
  setupRateLimited: "setup is limited to one call per IP address every 5 seconds; retry later",
  walletNotFound: "wallet not found",
  noWallets: "this API key has no managed wallets; create or import one first",
  walletAlreadyLinked: "wallet is already linked to this API key",
  privateKeyRequired: "private_key_base58 is required",
  privateKeyNotBase58: "private_key_base58 is not valid base58",
  privateKeyLength: "private_key_base58 must decode to a 64-byte secret key or a 32-byte seed",
  privateKeyMismatch: "private_key_base58 public key half does not match its secret key",
  invalidJson: "request body is not valid JSON",
  unsupportedContentType: "content-type must be application/json",
  bodyTooLarge: "request body exceeds the 64 KiB limit",
  notFound: "route not found",
  internal: "internal server error",
} as const;

/** Malformed requests the fuzzer found answered outside this catalog (URL, path parameters, nesting). */
export const HTTP_INPUT = {
  badUrl: "request URL is not valid (malformed percent-encoding)",
  paramTooLong: "a path parameter is longer than 100 characters",
  nestedTooDeep: "request body is nested more than 32 levels deep",
  /** Issue 30: a wallet body field of the wrong JSON type. */
  fieldType: (name: string, type: string): string => `${name} must be a ${type}`,
  contentLength: "request content-length does not match the body",
} as const;

/** Idempotency-Key handling. */
export const IDEMPOTENCY = {
  invalidKey: "Idempotency-Key must be 1 to 255 printable ASCII characters",
  differentRequest: "Idempotency-Key was already used with a different request",
  inProgress: "a request with this Idempotency-Key is still in progress",
  interrupted:
    "the first request with this Idempotency-Key was interrupted after it recorded an execution; GET /v1/executions shows its outcome",
} as const;

/** The execution pipeline and the execution history. */
export const EXECUTION = {
  chainUnavailable: "chain access is not configured on this server; execution endpoints are unavailable",
  bodyObject: "request body must be a JSON object",
  dryRunInvalid: "dry_run must be true or false",
  cacheMissing: "launch program configuration account is not available from the RPC; retry later",
  readFailedPrefix: "RPC read failed: ",
  transactionTooLargePrefix: "transaction does not fit the 1232-byte limit: ",
  historyLimit: "limit must be an integer from 1 to 200",
  historyOffset: "offset must be a non-negative integer",
  historyKind: (kinds: string): string => `kind must be one of ${kinds}`,
  /** Issue 30: the status filter names every status an execution can take. */
  historyStatus: "status must be one of pending, submitted, confirmed, finalized, failed, timeout, expired",
  chainNotReady: "the chain RPC has not answered since start-up; retry shortly",
} as const;

/** Trade rules: amounts, slippage, the trade request, and quote-time checks (used by every parser of amounts). */
export const TRADE_RULES = {
  amountRequired: "amount is required",
  amountInvalid: "amount must be a decimal number",
  amountPositive: "amount must be greater than zero",
  amountTooLarge: "amount is too large",
  amountUnsafeNumber: "integer amounts above 9007199254740991 must be sent as a string",
  tokenUnits: "token amounts must be a positive integer of atomic units",
  /** Issue 30: a sell's amount says its unit and where whole tokens go. */
  sellTokenUnits:
    "sell amounts must be a positive integer of token atomic units or a percentage; whole tokens such as 1.5 go in amount_tokens",
  /** Issue 30: whole-token amounts (`amount_tokens`, decimals read from the mint) beside the atomic `amount`. */
  amountTokensInvalid: 'amount_tokens must be a decimal number of whole tokens, e.g. "1.5"',
  amountTokensPositive: "amount_tokens must be greater than zero",
  amountTokensDecimals: (decimals: number): string =>
    `amount_tokens has more decimal places than the mint's ${decimals} decimals`,
  amountAndTokens: "use either amount (token atomic units) or amount_tokens (whole tokens), not both",
  amountTokensOnBuy:
    "amount_tokens (whole tokens) is only for sells; a buy's amount is SOL, or token atomic units with denominated_in_sol false",
  amountTokensOnSol: "amount_tokens (whole tokens) is only for token transfers; a SOL amount goes in amount",
  /** Beside the spec's token-amount text: which unit `amount` is in. */
  atomicUnitsHint:
    "amount is in token atomic units (a positive integer); whole tokens such as 1.5 go in amount_tokens",
  percentRange: "percentage sells must be greater than 0% and at most 100%",
  percentDecimals: "percentage sells cannot have more than 2 decimal places",
  percentOnBuy: "percentage amounts are only valid for sells",
  percentZeroUnits: "percentage sell resolves to zero token units",
  noTokenBalance: "wallet has no token balance to sell",
  slippageInvalid: "slippage must be a number",
  slippageRange: "slippage must be at least 0 and at most 50",
  slippagePositiveRange: "slippage must be greater than 0 and at most 50",
  slippageDecimals: "slippage cannot have more than 2 decimal places",
  slippageBps: "slippage_bps must be an integer from 0 to 5000",
  mintRequired: "mint is required",
  mintInvalid: SPEC.transfer.invalidMint,
  poolInvalid: "invalid pool address",
  walletInvalid: SPEC.check.invalidAddress,
  denominatedInSol: "denominated_in_sol must be true or false",
  simulateBoolean: "simulate must be true or false",
  confirmBoolean: "confirm must be true or false",
  measureTimingBoolean: "measure_timing must be true or false",
  tradeTooSmall: "amount is too small to trade",
  exceedsReserves: "amount exceeds the tokens available for purchase",
  emptyPool: "pool has no liquidity",
  insufficientQuoteReserves: "pool quote reserves cannot cover this sell",
  curveComplete: "bonding curve is complete",
  tokenBalanceTooLow: "wallet token balance is too low for this sell",
  // GET /v1/quote (issue 22): the trade's fields in the query string, without a wallet.
  quoteSide: "side must be buy or sell",
  quotePercent: "a quote needs a token amount: percentage sells depend on a wallet's balance",
} as const;

/** The launch layer: routing a mint to its venue and checking the accounts read. */
export const LAUNCH = {
  mintNotFound: SPEC.transfer.mintNotFound,
  unsupportedMint: SPEC.transfer.unsupportedMint,
  notLaunchToken: "mint is not a launch token: no bonding curve or swap pool exists for it",
  notMigrated: "bonding curve is complete and its swap pool does not exist yet; retry after migration",
  poolNotFound: "pool account was not found",
  notSwapPool: "pool is not a launchswap pool",
  poolNotSolQuoted: "only pools quoted in SOL are supported",
  poolMintMismatch: "mint does not match the pool base mint",
  poolVaultsUnexpected: "pool token accounts are not the pool's associated token accounts",
  curveInvalid: "bonding curve account could not be decoded",
  curveNotSolQuoted: "only coins quoted in SOL are supported",
} as const;

/** The create request beyond the spec's own texts. */
export const CREATE_RULES = {
  nameTooLong: "name must be at most 32 bytes",
  symbolTooLong: "symbol must be at most 13 bytes",
  uriTooLong: "uri must be at most 200 bytes",
  initialBuyInvalid: "initial_buy must be a SOL amount as a number or decimal string",
  mayhemBoolean: "mayhem_mode must be true or false",
  cashbackBoolean: "cashback must be true or false",
} as const;

/** Bundle legs and the bundle tip beyond the spec's own texts. */
export const BUNDLE_RULES = {
  bundleTipRequired: "bundleTip is required",
  bundleTipInvalid: "bundleTip must be a SOL amount as a number or decimal string",
  legObject: "each bundle leg must be an object",
  legType: "bundle leg type must be create, buy or sell",
  legPercent: "percentage amounts are not supported in bundle legs",
  legSlippage: "bundle buy and sell legs use slippageBps, not slippage",
  slippageBpsInvalid: "slippageBps must be a non-negative integer",
  legDenominated: "denominatedInSol must be true or false",
  poolWithCreate: "pool is only valid for existing-token trades",
} as const;

/** The cashback claim request. */
export const CASHBACK_RULES = {
  claimBondingBoolean: "claim_bonding_curve must be true or false",
  claimLaunchswapBoolean: "claim_launchswap must be true or false",
} as const;

/** Consolidate, transfer and split: fee reserve, sources, destinations, rent of new accounts, reserved addresses. */
export const SOL_RULES = {
  feeReserve: "fee_reserve_lamports must be a non-negative integer",
  sourceInvalid: "invalid source wallet address",
  destinationObject: "each destination must be an object with a wallet",
  destinationSolInvalid: "destination sol must be a SOL amount as a number or decimal string",
  destinationPercentInvalid: "destination percent must be greater than 0 and at most 100",
  destinationPercentDecimals: "destination percent cannot have more than 2 decimal places",
  totalPercentDecimals: "total_percent cannot have more than 2 decimal places",
  newAccountRent:
    "destination account does not exist yet and must receive at least the rent-exempt minimum of 890880 lamports",
  newAccountRentSplit:
    "each destination that does not exist yet must receive at least the rent-exempt minimum of 890880 lamports",
  destinationReserved: "destination wallet is a program or sysvar address, not a wallet",
  splitDestinationReserved: "each destination must be a wallet, not a program or sysvar address",
} as const;

/** The market stream (GET /v1/stream, issue 21). */
export const STREAM = {
  upgradeRequired: "GET /v1/stream is a WebSocket: send it as an Upgrade request",
} as const;

/** POST/GET/DELETE /v1/watch (issue 18: warm venue state). */
export const WATCH_RULES = {
  mintsList: "mints must be a non-empty array of at most 100 mint addresses",
  mintInvalid: "invalid mint address",
  notWatched: "mint not watched",
  disabled: "the warm venue state is off (WATCHED_MINTS_MAX=0)",
} as const;

/** Issue 22: outcomes, pre-send affordability, quotes, balances, per-request fees and unknown fields. */
export const OUTCOME_RULES = {
  signatureInvalid: "signature must be a base58 transaction signature",
  /** Followed by the wallet, its balance and what the execution needs (see domain/execution/affordability.ts). */
  insufficientSolPrefix: "insufficient SOL: wallet ",
} as const;

/** Execution events, the stream, waiting for one execution, and webhooks (issue 20). */
export const EVENTS = {
  executionNotFound: "execution not found",
  waitInvalid: "wait must be an integer number of seconds from 0 to 60",
  cursorInvalid: "after must be a cursor returned as next_cursor by this endpoint",
  eventCursorInvalid: "after and Last-Event-ID must be an event id (a non-negative integer) from this stream",
  eventLimitInvalid: "limit must be an integer from 1 to 1000",
  /** Issue 30: every event type is named, so a typo is refused rather than matching nothing. */
  typesInvalid:
    "types must be a comma-separated list of event types, each one of execution.pending, execution.submitted, " +
    "execution.confirmed, execution.finalized, execution.failed, execution.timeout, execution.expired, " +
    "position.updated, order.created, order.triggered, order.filled, order.failed, order.cancelled, order.expired",
  kindInvalid: (kinds: string): string => `kind must be one of ${kinds}`,
  webhookNotFound: "webhook not found",
  deliveryNotFound: "delivery not found",
  webhookUrlInvalid: "url must be an absolute https or http URL without credentials",
  webhookUrlPrivate: "url must not resolve to a loopback, private, link-local or metadata address",
  webhookUrlUnresolvable: "url host does not resolve",
  /** Issue 30: an unknown type would be stored and never fire, so it is refused naming the known ones. */
  webhookTypesInvalid:
    "types must be a non-empty list of event types, each one of execution.pending, execution.submitted, " +
    "execution.confirmed, execution.finalized, execution.failed, execution.timeout, execution.expired, " +
    "position.updated, order.created, order.triggered, order.filled, order.failed, order.cancelled, " +
    'order.expired, or ["*"]',
  webhookWalletsInvalid: "wallets must be a list of wallet public keys",
  /** Issue 29: the account's endpoint cap (MAX_WEBHOOKS_PER_ACCOUNT). */
  webhookLimit: (max: number): string =>
    `this account already has the maximum of ${max} webhooks (MAX_WEBHOOKS_PER_ACCOUNT); delete one first`,
  webhookPageAfterInvalid: "after must be a webhook id (wh_...), the last id of the previous page",
} as const;

/** Issue 33: positions and PnL queries. */
export const POSITIONS = {
  positionNotFound: "position not found",
  statusInvalid: "status must be one of open, closed",
  limitInvalid: "limit must be an integer from 1 to 500",
  cursorInvalid: "after must be a cursor returned as next_cursor by this endpoint",
  groupByInvalid: "group_by must be one of day, mint, wallet",
  fromInvalid: "from must be a date (YYYY-MM-DD) or an RFC 3339 time with its zone",
  toInvalid: "to must be a date (YYYY-MM-DD) or an RFC 3339 time with its zone",
  rangeInvalid: "from must be before to",
  valuationInvalid: "valuation must be one of warm, read, none",
  listValuationInvalid:
    "valuation must be one of warm, none (read values one position: GET /v1/positions/{wallet}/{mint})",
} as const;

/** Issue 23 (hardening): budgets, wallet cap, setup gate, metrics token, hosts, ambiguous bodies. */
export const HARDENING = {
  /** A route class's budget is spent; `seconds` until the window ends. */
  rateLimited: (routeClass: string, limit: number, windowSeconds: number, seconds: number): string =>
    `rate limit of ${limit} ${routeClass} requests per ${windowSeconds} s reached; retry in ${seconds} s`,
  /** Issue 29: the class's budget shared by every key of the account is spent. */
  accountRateLimited: (routeClass: string, limit: number, windowSeconds: number, seconds: number): string =>
    `rate limit of ${limit} ${routeClass} requests per ${windowSeconds} s for this account (all its keys) reached; retry in ${seconds} s`,
  authFailuresLimited: (seconds: number): string =>
    `too many requests with an invalid API key from this address; retry in ${seconds} s`,
  walletLimit: (max: number): string =>
    `this API key already holds the maximum of ${max} wallets (MAX_WALLETS_PER_KEY); delink one first`,
  setupClosed: "setup is disabled on this server (SETUP_MODE=closed)",
  setupToken: "setup requires a valid x-setup-token header on this server",
  metricsToken: "metrics require Authorization: Bearer <METRICS_TOKEN>",
  hostNotAllowed: "the Host header names a host this server does not serve (ALLOWED_HOSTS)",
  duplicateKey: "request body repeats a key in one object",
  aliasConflict: (alias: string, canonical: string): string =>
    `${alias} and ${canonical} name the same field and disagree; send one of them`,
  defaultSourcesCount:
    "the key has more than 50 wallets besides the destination; name up to 50 in source_wallets",
  bodyObject: EXECUTION.bodyObject,
} as const;

/** Issue 22 item 5: per-request priority fee and tip, unknown body fields. */
export const REQUEST_FEES = {
  priorityFeeInvalid:
    "priority_fee must be a SOL amount of at least 0 per transaction (number or decimal string, at most 9 decimals)",
  tipInvalid: "tip must be a positive SOL amount (number or decimal string, at most 9 decimals)",
  /** `sol` and `max` as SOL text. */
  priorityFeeTooHigh: (sol: string, max: string): string =>
    `priority_fee ${sol} SOL is above the maximum of ${max} SOL per transaction (PRIORITY_FEE_MAX_SOL)`,
  tipTooHigh: (sol: string, max: string): string =>
    `tip ${sol} SOL is above the maximum of ${max} SOL (TIP_MAX_SOL)`,
  tipWithoutTipAccounts: "tip needs a relay that takes tips; the configured relay has no tip accounts",
  /** The warning of an ignored field, and (STRICT_FIELDS=true) the 400 of a refused one. */
  unknownFieldIgnored: (path: string): string => `unknown field "${path}" ignored`,
  unknownFieldRefused: (path: string): string =>
    `unknown field "${path}" (STRICT_FIELDS=true refuses unknown fields)`,
  /** Issue 29: an unknown field that names a safety switch is refused, never ignored. */
  misspeltSwitch: (path: string, safetySwitch: string): string =>
    `unknown field "${path}" looks like the safety switch "${safetySwitch}"; send "${safetySwitch}" at the top level of the body (a misspelt safety switch is refused, never ignored)`,
} as const;
