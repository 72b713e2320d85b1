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

export const apiKeySecurity = [{ apiKey: [] as string[] }];
