/** Shared JSON schemas (response schemas are whitelists: unlisted fields are never serialized). */

export const errorSchema = {
  type: "object",
  properties: { detail: { type: "string" } },
  required: ["detail"],
  additionalProperties: true,
} as const;

export const walletSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    public_key: { type: "string" },
    status: { type: "string", enum: ["active"] },
    is_default: { type: "boolean" },
    created_at: { type: "string", description: "ISO 8601 UTC without zone suffix" },
  },
  required: ["id", "public_key", "status", "is_default", "created_at"],
  additionalProperties: false,
} as const;

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

export const lamportsSchema = { type: "integer", description: "lamports" } as const;
export const solSchema = { type: "string", description: "SOL with 9 decimals" } as const;

/**
 * The execution record's id (issue 22). Not in `required`: an Idempotency-Key replay of a response stored before
 * the field existed must still serialize.
 */
export const executionIdSchema = {
  type: "string",
  description:
    "id of the execution record: GET /v1/executions/{id}, or find it with GET /v1/executions?signature=",
} as const;

/** The confirmation fields of one submitted transaction (spread into a response's properties). */
export const confirmationProperties = {
  execution_id: executionIdSchema,
  signature: { type: "string" },
  confirmed: { type: "boolean" },
  confirmation_status: { type: ["string", "null"] },
} as const;
export const confirmationRequired = ["signature", "confirmed", "confirmation_status"] as const;

export const apiKeySecurity = [{ apiKey: [] as string[] }];

const lamportString = (description: string) => ({ type: "string", description }) as const;

/** Issue 22: what a confirmed transaction actually moved for the wallet (from getTransaction's balances). */
export const fillSchema = {
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

/**
 * A request body that may be absent (no body or JSON null): its fields are documented, not typed, because the
 * domain parser applies the spec's rules and exact texts.
 */
export function optionalBody<P extends Record<string, { description: string }>>(
  properties: P,
): { type: readonly ["object", "null"]; properties: P } {
  return { type: ["object", "null"], properties };
}
