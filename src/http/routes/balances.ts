/** GET /v1/wallets/{public_key}/balances (issue 22). */
import type { FastifyInstance } from "fastify";
import { walletBalances } from "../../domain/wallets/balances.js";
import { walletReadRoute, type WalletReadDeps } from "./wallet-read.js";

const text = (description: string) => ({ type: "string", description }) as const;

const balancesSchema = {
  type: "object",
  properties: {
    wallet: text("the wallet's public key"),
    lamports: text("SOL balance in lamports"),
    sol: text("SOL balance with 9 decimals"),
    tokens: {
      type: "array",
      description: "every token account the wallet owns (SPL Token and Token-2022), by mint",
      items: {
        type: "object",
        properties: {
          mint: text("token mint"),
          token_account: text("the token account's address"),
          token_program: text("owning token program"),
          amount: text("balance in atomic units"),
          decimals: { type: "integer", description: "the mint's decimals" },
          ui_amount: text("balance with the mint's decimals"),
        },
        required: ["mint", "token_account", "token_program", "amount", "decimals", "ui_amount"],
        additionalProperties: false,
      },
    },
    slot: { type: "integer", description: "the lowest slot the balances were read at" },
  },
  required: ["wallet", "lamports", "sol", "tokens", "slot"],
  additionalProperties: false,
} as const;

/** Registers the balances route. */
export function balanceRoutes(app: FastifyInstance, deps: WalletReadDeps): void {
  walletReadRoute(
    app,
    deps,
    "/v1/wallets/:public_key/balances",
    { summary: "SOL and every token account of one of this key's wallets", answer: balancesSchema },
    walletBalances,
  );
}
