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
