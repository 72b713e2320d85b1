/**
 * The texts of an outside wallet's durable nonce (issue 32): its creation build, raced builds on it and the
 * signed variants sent together. One place for the error catalog.
 */
export const OUTSIDE_NONCE = {
  nonceAccountInvalid: "nonce_account must be a base58 public key",
  nonceMissing:
    "the nonce account does not exist or is not an initialized nonce account (closed?): build one with POST /v1/nonce-accounts/build",
  addressTaken: "the outside wallet's nonce account address holds an account that is not a nonce account",
  otherAuthority: "the nonce account's authority is not the outside wallet",
  nonceAdvanced: "the nonce account was advanced since these variants were built: build them again",
  transactionsType:
    "transactions must be a list of 1 to 32 signed transactions (base64): a raced build's variants or a bundle's legs",
  transactionAndTransactions: "send either transaction or transactions, not both",
  variantsMixed: "transactions must be the signed variants of one raced build, at most one per route",
  routeGone: "a variant's route is no longer configured: build again",
} as const;
