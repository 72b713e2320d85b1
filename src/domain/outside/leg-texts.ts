/**
 * The texts of outside-wallet creates and bundles (issue 32): their build and send refusals, one place for the
 * error catalog (beside OUTSIDE, in a file of their own).
 */
export const OUTSIDE_LEGS = {
  legWalletRequired:
    "each leg needs the outside wallet that signs it: accounts[].wallet, or public_key for every leg",
  transactionsInvalid: "transactions must be an array of 1 to 4 signed transactions as base64 text",
  transactionAndTransactions: "send either transaction or transactions, not both",
  bundleIncomplete:
    "transactions must be every leg of one bundle built by POST /v1/laser/bundle/build, in leg order",
  bundleNeedsTransactions: "a bundle leg is sent with all its legs in transactions, not alone",
} as const;
