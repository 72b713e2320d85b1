/** The 400 texts of a copy order's body. */
export const COPY_RULES = {
  field: (name: string): string => `unknown field ${name} for a copy order`,
  noSide:
    "a copy order mirrors the side of each followed trade: it takes no side (use buys_only or sells_only)",
  mintGiven: "a copy order follows wallets, not a mint: it takes no mint",
  follow: "follow must be a list of 1 to 20 distinct base58 wallet addresses",
  followOwn: (wallet: string): string =>
    `a copy order cannot follow its own wallet or another wallet of this account (${wallet})`,
  sizeRequired: "a copy order needs amount (SOL per buy) or ratio (of the followed trade's size)",
  sizeBoth: "a copy order takes amount or ratio, not both",
  amount: "a copy order's amount is the SOL of each copied buy: a positive decimal number of SOL",
  amountSellsOnly: "amount is the SOL of each copied buy: a sells_only copy order takes none",
  ratio: "ratio must be a decimal number above 0 and at most 100 (at most 6 decimals)",
  sellSizing: "sell_sizing must be percent (our position's share they sold of theirs) or ratio",
  sellRatioNeedsRatio: "sell_sizing ratio needs ratio (their token amount × ratio)",
  flag: (field: string): string => `${field} must be true or false`,
  sidesBoth: "buys_only and sells_only cannot both be true",
  cap: (field: string): string => `${field} must be a positive decimal number of SOL`,
  delay: "delay_ms must be an integer from 0 to 60000",
  maxMove:
    'max_price_move must be a percentage above 0 and at most 1000 (at most 2 decimals), e.g. 5 or "5%"',
} as const;
