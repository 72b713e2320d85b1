/** GET /v1/wallets/{public_key}: one wallet of the key with its durable nonce account. */
import type { FastifyInstance } from "fastify";
import { walletDetail } from "../../domain/wallets/detail.js";
import { closedObject, walletProperties, walletRequired } from "../openapi/schemas.js";
import { walletReadRoute, type WalletReadDeps } from "./wallet-read.js";

const nullableText = (description: string) => ({ type: ["string", "null"], description }) as const;

const nonceAccountSchema = closedObject(
  {
    address: {
      type: "string",
      description: "the nonce account's address (derived from the wallet: known before it exists)",
    },
    exists: {
      type: "boolean",
      description: "false until the wallet's first raced trade creates it (or once it was closed)",
    },
    rent_lamports: nullableText(
      "its lamports: the rent-exempt minimum the wallet paid, returned when it is withdrawn",
    ),
    nonce_value: nullableText("the current nonce value (the blockhash the next raced trade uses)"),
    authority: nullableText("who may advance it (the wallet itself unless changed outside the service)"),
  },
  { required: ["address", "exists", "rent_lamports", "nonce_value", "authority"] },
);

const walletDetailSchema = closedObject(
  {
    ...walletProperties,
    nonce_account: {
      ...nonceAccountSchema,
      description: "the wallet's durable nonce account, which raced trades advance (created on demand)",
    },
    slot: { type: "integer", description: "the slot the nonce account was read at" },
  },
  { required: [...walletRequired, "nonce_account", "slot"] },
);

/** Registers GET /v1/wallets/{public_key}. */
export function walletDetailRoutes(app: FastifyInstance, deps: WalletReadDeps): void {
  walletReadRoute(
    app,
    deps,
    "/v1/wallets/:public_key",
    {
      summary: "One of this key's wallets, with its durable nonce account (raced trades)",
      answer: walletDetailSchema,
    },
    walletDetail,
  );
}
