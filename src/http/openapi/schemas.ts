/** Shared JSON schemas (response schemas are whitelists: unlisted fields are never serialized). */
import { allCodes, codesByStatus, ERROR_CATALOG } from "../hooks/error-catalog.js";
import { closedObject, ref } from "../../core/json-schema.js";

export {
  closedObject,
  confirmationProperties,
  executionIdSchema,
  fillSchema,
  lamportsAndSol,
  lamportsSchema,
  ref,
  type ClosedObjectOptions,
} from "../../core/json-schema.js";

const detail = { type: "string", description: "what went wrong, in words (the spec's exact texts)" } as const;

/**
 * Fields an error body may carry beside `detail` (issue 30: the document listed `detail` only). Each is present
 * only on the errors it belongs to; the list stays open (`additionalProperties`) for fields added later.
 */
const errorExtras = {
  // Nullable: the error body is serialized through this schema, and a field that is null must stay null.
  rule: {
    type: ["string", "null"],
    description: "403: the rule that refused (scope, wallet, frozen, cap, a policy field…)",
  },
  signature: { type: ["string", "null"], description: "the transaction signature, when one was sent" },
  signatures: {
    type: ["array", "null"],
    items: { type: "string" },
    description: "every signature sent before the failure (multi-transaction requests)",
  },
  confirmation_status: {
    type: ["string", "null"],
    description: "what confirmation polling last saw for the signature",
  },
  bundle_id: { type: ["string", "null"], description: "the relay's bundle id, when the bundle was accepted" },
  execution_id: {
    type: ["string", "null"],
    description: "the execution recorded for the request (GET /v1/executions/{id})",
  },
  program_error: { description: "the program error decoded from the failure (program, code, name)" },
  logs: { type: ["array", "null"], items: { type: "string" }, description: "program logs of the failure" },
  reason: { type: ["string", "null"], description: "a machine-readable cause beside the spec's detail" },
  index: { type: ["integer", "null"], description: "the bundle leg (0-based) the error is about" },
  completed_transactions: {
    description: "transactions already sent when a multi-transaction request stopped (they are on chain)",
  },
  max_webhooks: { type: ["integer", "null"], description: "403 rule cap: MAX_WEBHOOKS_PER_ACCOUNT" },
  required_lamports: { description: "lamports the request needs (an affordability refusal), as text" },
  balance_lamports: { description: "lamports the wallet holds (an affordability refusal), as text" },
} as const;

/** Issue 30: the machine code beside `detail`, one of `codes` (the error catalog's, http/hooks/error-catalog.ts). */
function codeSchema(codes: readonly string[]) {
  return {
    type: "string",
    enum: codes,
    description:
      "stable machine code of the error, `<capability>.<condition>` (README, Errors); match on it rather than on detail",
  } as const;
}

const ALL_CODES = allCodes(ERROR_CATALOG).map((c) => c.code);
const BY_STATUS = codesByStatus(ERROR_CATALOG);

/** Every error body: `{"detail": "...", "code": "..."}` and, on some errors, the fields of `errorExtras`. */
export const errorComponent = {
  $id: "Error",
  type: "object",
  description:
    "An error answer: `detail` says what went wrong, `code` names the error for programs; some errors carry more fields beside them",
  properties: { detail, code: codeSchema(ALL_CODES), ...errorExtras },
  required: ["detail", "code"],
  additionalProperties: true,
} as const;

/** The statuses an error can come with, each with its own component listing the codes it can carry. */
// 500 has its own component (ServerError); 414 (a router refusal) and 426 (the stream's upgrade) are on no
// documented route's answers, and the linter refuses an unused component.
export const ERROR_STATUSES: readonly number[] = [...BY_STATUS.keys()]
  .filter((s) => s !== 500 && s !== 414 && s !== 426)
  .sort((a, b) => a - b);

/** `Error400`, `Error404`, …: the error body of one status, `code` limited to the codes of that status. */
export const statusErrorComponents = ERROR_STATUSES.map((status) => ({
  $id: `Error${status}`,
  description: `An error answer with status ${status}; \`code\` is one of: ${BY_STATUS.get(status)!.join(", ")}`,
  // The Error body, its code narrowed to this status's codes (one shape, named once: Error).
  allOf: [
    ref("Error"),
    { type: "object", properties: { code: codeSchema(BY_STATUS.get(status)!) }, required: ["code"] },
  ],
}));

/** A 500: the detail and the id of the request in the service log. */
export const serverErrorComponent = {
  $id: "ServerError",
  type: "object",
  description: "An unexpected error; request_id names it in the service log",
  properties: {
    detail,
    code: codeSchema(BY_STATUS.get(500) ?? []),
    request_id: { type: "string", description: "the request's id in the service log" },
  },
  required: ["detail", "code"],
  additionalProperties: true,
} as const;

/** A 403 of the custody layer (issue 19): the detail and the rule that refused. */
export const refusalComponent = {
  $id: "Refusal",
  type: "object",
  description:
    "Refused by the key's scope, wallet binding, freeze, policy or key powers (`rule` names which)",
  properties: {
    detail,
    code: codeSchema(BY_STATUS.get(403) ?? []),
    max_webhooks: errorExtras.max_webhooks,
    rule: {
      type: "string",
      description:
        "scope, wallet, frozen, root, expired, powers (key management beyond the caller's own powers), or the policy field that refused the request",
    },
    cap_key_id: {
      type: "integer",
      description:
        "with rule max_sol_per_24h: the key whose 24 h cap refused (the request's key or a key above it, which every key it created is charged to)",
    },
  },
  required: ["detail"],
  additionalProperties: true,
} as const;

export const errorSchema = ref("Error");

export const walletProperties = {
  id: { type: "integer", description: "the wallet's id within this service" },
  public_key: { type: "string", description: "the wallet's address (base58)" },
  status: { type: "string", enum: ["active"], description: "always active (delinked wallets are gone)" },
  is_default: {
    type: "boolean",
    description: "true for the key's default wallet (used when a request names none)",
  },
  created_at: { type: "string", description: "ISO 8601 UTC without zone suffix" },
} as const;
export const walletRequired = ["id", "public_key", "status", "is_default", "created_at"] as const;

/** A managed wallet's public metadata. */
export const walletComponent = closedObject(walletProperties, {
  $id: "Wallet",
  description: "A managed wallet (public metadata only)",
  required: walletRequired,
});

/** A wallet just created: its secret key, shown once. */
export const newWalletComponent = closedObject(
  {
    ...walletProperties,
    private_key_base58: { type: "string", description: "the wallet's secret key, base58 (shown once)" },
    private_key_format: {
      type: "string",
      enum: ["base58_64_byte_secret_key"],
      description: "how private_key_base58 is encoded",
    },
  },
  {
    $id: "NewWallet",
    description: "A wallet just created, with its secret key (shown once: store it)",
    required: [...walletRequired, "private_key_base58", "private_key_format"],
  },
);

export const walletSchema = ref("Wallet");

/** The error responses every authenticated route can give. */
export const authErrors = { 401: errorSchema } as const;

/** The error responses of every route that executes on chain (validation, wallet, upstream, no chain). */
export const executionErrors = {
  400: errorSchema,
  404: errorSchema,
  502: errorSchema,
  503: errorSchema,
  ...authErrors,
} as const;

export const apiKeySecurity = [{ apiKey: [] as string[] }];

const lamportString = (description: string) => ({ type: "string", description }) as const;

/** Issue 22: what a confirmed transaction actually moved for the wallet (from getTransaction's balances). */
export const fillComponent = {
  $id: "Fill",
  type: ["object", "null"],
  description:
    "what the confirmed transaction moved for the wallet, read from the chain's balance changes (null: not readable yet; absent: not confirmed)",
  properties: {
    sol_change_lamports: lamportString("post minus pre lamports of the wallet (negative when it spent)"),
    fee_lamports: lamportString("transaction fee paid (base + priority)"),
    tip_lamports: lamportString("lamports the relay tip accounts received"),
    rent_lamports: lamportString("rent of accounts the transaction created (e.g. the token account)"),
    trade_sol_lamports: lamportString(
      "SOL the trade itself spent (buy) or received (sell), fee, tip and rent excluded",
    ),
    token_change: lamportString("post minus pre token atomic units of the wallet for the mint"),
    token_balance_after: lamportString(
      "the wallet's token atomic units of the mint after the transaction (the positions ledger compares it with what it holds)",
    ),
    token_decimals: { type: "integer", description: "the mint's decimals" },
  },
  required: [
    "sol_change_lamports",
    "fee_lamports",
    "tip_lamports",
    "rent_lamports",
    "trade_sol_lamports",
    "token_change",
  ],
  additionalProperties: false,
} as const;

/** The fields of a request body or query string, documented here and checked by the domain parser (open: no whitelist). */
export function documentedFields<P extends Record<string, object>>(
  properties: P,
): { type: "object"; properties: P } {
  return { type: "object", properties };
}

/**
 * A request body that may be absent (no body or JSON null): its fields are documented, not typed, because the
 * domain parser applies the spec's rules and exact texts.
 */
export function optionalBody<P extends Record<string, { description: string }>>(
  properties: P,
): { type: readonly ["object", "null"]; properties: P } {
  return { type: ["object", "null"], properties };
}
