/**
 * The texts of outside-wallet creates and bundles (issue 32): their build and send refusals, one place for the
 * error catalog (beside OUTSIDE, in a file of their own).
 */
export const OUTSIDE_LEGS = {
  legWalletRequired:
    "each leg needs the outside wallet that signs it: accounts[].wallet, or public_key for every leg",
  bundleIncomplete:
    "transactions must be every leg of one bundle built by POST /v1/laser/bundle/build, in leg order",
  bundleNeedsTransactions: "a bundle leg is sent with all its legs in transactions, not alone",
} as const;
