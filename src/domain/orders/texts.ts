/** The texts of the orders endpoints (400s name the rule; a 409 names the state or the limit). */
export const ORDER_RULES = {
  bodyObject: "request body must be a JSON object",
  kindInvalid:
    "kind must be one of: limit, take_profit, stop_loss, trailing_stop, bracket, on_migration, snipe, copy",
  sideInvalid: "side must be buy or sell",
  sideSellOnly: (kind: string): string => `a ${kind} order sells: side must be sell or omitted`,
  mintRequired: "mint is required",
  mintInvalid: "mint is not a valid base58 address",
  notAMint: (mint: string): string => `mint ${mint} is not a launch token (no bonding curve or pool found)`,
  walletInvalid: "wallet is not a valid base58 address",
  buyAmount: "a buy order's amount is SOL: a positive decimal number of SOL",
  sellAmount:
    'a sell order\'s amount is token atomic units (a positive integer) or a percentage such as "100%"',
  levelRequired: (what: string): string => `${what} needs one of: price, percent, sol_out`,
  levelBoth: (what: string): string => `${what} takes one of price, percent or sol_out, not more than one`,
  priceInvalid: (field: string): string =>
    `${field} must be a positive decimal number of SOL per whole token (at most 18 decimals)`,
  levelPositive: (field: string): string => `${field} must be greater than zero`,
  solOutInvalid: (field: string): string => `${field} must be a positive decimal number of SOL`,
  percentInvalid: (field: string): string =>
    `${field} must be a percentage from the entry price, e.g. 50 or "+50%" (at most 2 decimals)`,
  tpPercentSign: (field: string): string => `${field} of a take-profit must be above 0 (a rise from entry)`,
  slPercentRange: (field: string): string =>
    `${field} of a stop-loss must be a fall from entry between 0 and 100, e.g. -20 or "-20%"`,
  limitPriceOnly:
    "a limit order's level is price (SOL per whole token); percent and sol_out are for take_profit and stop_loss",
  trailPercent: "trail_percent must be a percentage above 0 and below 100 (at most 2 decimals)",
  trailOnly: "trail_percent is only for trailing_stop orders",
  bracketLegs:
    "a bracket needs take_profit and stop_loss, each an object with one of price, percent, sol_out",
  bracketOnly: (field: string): string => `${field} (an object) is only for bracket orders`,
  entryInvalid: "entry_price must be a positive decimal number of SOL per whole token (at most 18 decimals)",
  expiresInvalid: "expires_at must be an ISO 8601 date-time",
  expiresPast: "expires_at is in the past",
  maxRetriesInvalid: "max_retries must be an integer from 0 to 10",
  unknownField: (name: string): string => `unknown field ${name}`,
  notFound: "order not found",
  idInvalid: "order not found",
  notOpen: (state: string): string => `order is ${state}: only an open order can be cancelled`,
  tooMany: (max: number): string => `this key holds the maximum of ${max} open orders`,
  firesKind: (kind: string): string =>
    `only snipe and copy orders keep a record per trigger: a ${kind} order fires once, its executions are in execution_ids`,
  stateInvalid: "state must be one of: open, triggered, filled, failed, cancelled, expired",
  noChain: "orders need the chain: the service has no RPC configured",
  migrationNoLevel:
    "an on_migration order fires when the mint's pool is tradable: it takes no price, percent or sol_out",
  alreadyMigrated: "mint is already on its launchswap pool: an on_migration order would fire at once",
  noWarmState: "orders need the warm venue state (WATCHED_MINTS_MAX above 0)",
  bracketOrder: "take_profit must be above stop_loss",
  noPosition:
    "percent levels are measured from the entry price of the wallet's position in the mint, and the wallet holds none: give entry_price (SOL per whole token) or a price level",
  unknownBasis:
    "percent levels are measured from the entry price of the wallet's position in the mint, and its cost is unknown (the tokens arrived outside the service): give entry_price (SOL per whole token) or a price level",
} as const;

/** The reasons a snipe or copy fire record gives when it sent nothing and no rule or error names why. */
export const FIRE_REASONS = {
  /** Its process ended between claim and settlement with nothing recorded (settled by the reconciliation). */
  processEnded: "process_ended",
  /** Its claim was lost to another process at its record's commit: nothing was recorded nor sent. */
  claimLost: "claim_lost",
} as const;
