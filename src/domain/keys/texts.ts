/**
 * Issue 19's error texts (kept with the capability so the shared catalog in core/errors.ts stays untouched
 * while other work regroups it; each is listed in docs/decisions.md, "Issue 19").
 */
export const CUSTODY = {
  keyRevoked: "API key revoked",
  keyExpired: "API key expired",
  keyFrozen: "API key is frozen",
  accountFrozen: "account is frozen; the root key can unfreeze it with POST /v1/account/unfreeze",
  rootOnly: "this route needs the account's root key",
  missingScope: (scope: string) => `API key lacks the "${scope}" scope`,
  walletNotAllowed: (wallet: string) => `API key may not use wallet ${wallet}`,
  keyNotFound: "key not found",
  rootNotRevocable: "the root key cannot be revoked",
  keyIdInvalid: "key id must be a positive integer",
  bodyObject: "request body must be a JSON object",
  nameInvalid: "name is required: a string of 1 to 64 characters",
  scopesInvalid: "scopes must be a non-empty array of: read, trade, create, transfer, wallets, keys, build",
  walletsInvalid: "wallets must be a non-empty array of managed wallet public keys of this account",
  walletNotOwned: (wallet: string) => `wallets: ${wallet} is not a wallet of this account`,
  expiresAtInvalid: "expires_at must be an ISO 8601 date-time in the future",
  unknownField: (field: string) => `unknown field: ${field}`,
  activityLimit: "limit must be an integer from 1 to 200",
  activityCursor: "after must be a positive integer (a next_cursor value)",
  activityKeyId: "key_id must be a positive integer",
  activityTargetKeyId: "target_key_id must be a positive integer",
  activityStatus: "status must be an HTTP status code",
} as const;

/** Issue 30: the policy body's texts (PUT /v1/keys/{id}/policy), in the catalog so each has its code. */
export const KEY_POLICY = {
  policySol: (name: string) =>
    `${name} must be a positive SOL amount (number or decimal string, at most 9 decimals)`,
  policyLamports: (name: string) => `${name} must be a non-negative integer number of lamports`,
  policyU64: (name: string) => `${name} must fit a u64`,
  policyAddressList: (name: string, max: number) =>
    `${name} must be an array of at most ${max} base58 addresses`,
  policyAddress: (name: string, index: number) => `${name}[${index}] is not a valid base58 address`,
  policyVenues: "venues must be a non-empty array of: bonding_curve, launchswap",
  policyMintsOverlap: "mints_allow and mints_deny must not share a mint",
  policyPerExecutionOverDaily: "max_sol_per_execution must not exceed max_sol_per_24h",
} as const;
