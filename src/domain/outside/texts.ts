/** The outside-wallet texts (issue 32): the build and send refusals, one place for the error catalog. */
export const OUTSIDE = {
  publicKeyRequired: "public_key is required: the outside wallet that will sign",
  publicKeyInvalid: "public_key must be a base58 public key",
  transactionRequired: "transaction is required: the signed transaction as base64",
  transactionMalformed: "transaction is not a well-formed base64 serialized transaction",
  signatureInvalid: "transaction signature does not verify for its fee payer",
  notBuilt: "transaction was not built for this key by POST /v1/trades/build (or its build expired)",
} as const;
