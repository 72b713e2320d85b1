/** Wallet endpoints (spec 4.2): create, import, list, set default, delink. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { badRequest, HARDENING, HTTP_INPUT } from "../../core/errors.js";
import {
  createWallet,
  delinkWallet,
  importWallet,
  listWallets,
  setDefaultWallet,
  type WalletDeps,
} from "../../domain/wallets/wallets.js";
import { requireApiKey } from "../hooks/auth.js";
import { withRequestStore } from "../hooks/custody.js";
import {
  apiKeySecurity,
  authErrors,
  errorSchema,
  ref,
  walletSchema,
  closedObject,
} from "../openapi/schemas.js";
import { walletPage, walletPageHeaders, walletPageQuery } from "./wallet-page.js";

/** A wallet path where any text is read: one that is no address answers 404, as an unknown wallet. */
const walletPathParams = {
  type: "object",
  properties: {
    public_key: {
      type: "string",
      description:
        "wallet public key (base58); any other text answers 404 wallet not found, as an unknown wallet",
    },
  },
  required: ["public_key"],
} as const;

/**
 * Rejects wrong JSON types before Ajv's type coercion could turn "true" or 1 into a boolean:
 * a client that sends the wrong type gets a 400, not a guess.
 */
function strictBody(fields: Record<string, "boolean" | "string">) {
  return async (req: FastifyRequest): Promise<void> => {
    const body: unknown = req.body;
    if (body === undefined || body === null) return;
    if (typeof body !== "object" || Array.isArray(body)) throw badRequest(HARDENING.bodyObject);
    for (const [name, type] of Object.entries(fields)) {
      const v = (body as Record<string, unknown>)[name];
      if (v !== undefined && typeof v !== type) throw badRequest(HTTP_INPUT.fieldType(name, type));
    }
  };
}

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  return (req.body ?? {}) as Record<string, unknown>;
}

/** Registers the wallet routes (authenticated by the global auth hook). */
export function walletRoutes(app: FastifyInstance, deps: WalletDeps): void {
  const common = { tags: ["wallets"], security: apiKeySecurity };

  app.post(
    "/v1/wallets",
    {
      config: { scope: "wallets" },
      preValidation: strictBody({ set_default: "boolean" }),
      schema: {
        ...common,
        summary: "Create a managed wallet (its secret key is returned once)",
        body: {
          type: ["object", "null"],
          properties: { set_default: { type: "boolean", default: false } },
        },
        response: {
          200: ref("NewWallet"),
          400: errorSchema,
          ...authErrors,
          409: { ...errorSchema, description: "The key holds MAX_WALLETS_PER_KEY wallets already." },
        },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const result = await createWallet(
        withRequestStore(req, deps),
        key.id,
        bodyOf(req).set_default === true,
      );
      void reply.header("Cache-Control", "no-store");
      return result;
    },
  );

  app.post(
    "/v1/wallets/import",
    {
      config: { scope: "wallets" },
      preValidation: strictBody({ private_key_base58: "string", set_default: "boolean" }),
      schema: {
        ...common,
        summary: "Import a wallet from a base58 64-byte secret key or 32-byte seed",
        body: {
          type: "object",
          properties: {
            private_key_base58: { type: "string", maxLength: 200 },
            set_default: { type: "boolean", default: false },
          },
          required: ["private_key_base58"],
        },
        response: { 200: walletSchema, 400: errorSchema, ...authErrors, 409: errorSchema },
      },
    },
    async (req, reply) => {
      const key = requireApiKey(req);
      const body = bodyOf(req);
      void reply.header("Cache-Control", "no-store");
      return importWallet(
        withRequestStore(req, deps),
        key.id,
        body.private_key_base58,
        body.set_default === true,
      );
    },
  );

  app.get<{ Querystring: { limit?: number; after?: number } }>(
    "/v1/wallets",
    {
      config: { scope: "read" },
      schema: {
        ...common,
        summary: "List the key's wallets (public metadata only), oldest first",
        querystring: walletPageQuery,
        response: {
          200: {
            type: "array",
            items: walletSchema,
            headers: walletPageHeaders,
          },
          400: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req, reply) => {
      const all = await listWallets(withRequestStore(req, deps), requireApiKey(req).id);
      const page = walletPage(all, req.query);
      if (page.next !== undefined) void reply.header("Link", page.next);
      return page.items;
    },
  );

  app.put<{ Params: { public_key: string } }>(
    "/v1/wallets/:public_key/default",
    {
      config: { scope: "wallets" },
      schema: {
        ...common,
        summary: "Make a wallet the key's default",
        params: walletPathParams,
        response: { 200: walletSchema, ...authErrors, 404: errorSchema },
      },
    },
    async (req) =>
      setDefaultWallet(withRequestStore(req, deps), requireApiKey(req).id, req.params.public_key),
  );

  app.delete<{ Params: { public_key: string } }>(
    "/v1/wallets/:public_key",
    {
      config: { scope: "wallets" },
      schema: {
        ...common,
        summary: "Delink a wallet: deletes its encrypted key and its execution history",
        params: walletPathParams,
        response: {
          200: closedObject(
            { ok: { type: "boolean", description: "true: the wallet is delinked" } },
            { required: ["ok"] },
          ),
          ...authErrors,
          404: errorSchema,
        },
      },
    },
    async (req) => delinkWallet(withRequestStore(req, deps), requireApiKey(req).id, req.params.public_key),
  );
}
