/** The 400 texts of a snipe order's body. */
export const SNIPE_RULES = {
  field: (name: string): string => `unknown field ${name} for a snipe order`,
  buyOnly: "a snipe order buys: side must be buy or omitted",
  mintGiven: "a snipe order buys new tokens that match its rule: it takes no mint",
  amount: "a snipe order's amount is the SOL spent on each matching token: a positive decimal number of SOL",
  ruleRequired:
    "a snipe order needs a rule: at least one of creators, name_pattern, symbol_pattern, mayhem, cashback, min_initial_buy, max_initial_buy",
  creators: "creators must be a list of 1 to 100 base58 addresses",
  pattern: (field: string): string =>
    `${field} must be a text of 1 to 64 characters (case-insensitive; * matches any run, ? one character)`,
  flag: (field: string): string => `${field} must be true or false`,
  initialBuy: (field: string): string => `${field} must be a non-negative decimal number of SOL`,
  initialBounds: "min_initial_buy must not be above max_initial_buy",
  perHour: "max_per_hour must be an integer from 1 to 1000",
} as const;
