/**
 * What the chain reads of one wallet (`/v1/wallets/{public_key}` and its `/balances`) share: the wallet path
 * parameter, the key's own store (a wallet another key holds answers 404), the chain gate and the statuses.
 */
import type { FastifyInstance } from "fastify";
import type { Chain } from "../../chain/chain.js";
import { requireChain } from "../../domain/execution/gate.js";
import type { Store } from "../../store/index.js";
import { requireApiKey } from "../hooks/auth.js";
import { storeOf } from "../hooks/custody.js";
import { apiKeySecurity, authErrors, errorSchema } from "../openapi/schemas.js";

/** The chain a wallet read is given: the app's, as it was built. */
export type WalletReadChain = Pick<Chain, "rpc"> | Chain;

/** The app's collaborators a wallet read route takes. */
export interface WalletReadDeps {
  store: Pick<Store, "findWallet" | "findDefaultWallet">;
  chain?: WalletReadChain;
}

/** The domain read behind the route: the key's store, the chain, the key and the path's wallet text. */
export type WalletRead<T> = (
  deps: { store: Store; chain: WalletReadChain },
  apiKeyId: number,
  publicKey: string,
) => Promise<T>;

/** Registers GET `path` (holding `:public_key`), answering `read` of that wallet of the key (200 as `answer`). */
export function walletReadRoute<T>(
  app: FastifyInstance,
  deps: WalletReadDeps,
  path: string,
  doc: { summary: string; answer: object },
  read: WalletRead<T>,
): void {
  app.get<{ Params: { public_key: string } }>(
    path,
    {
      schema: {
        tags: ["wallets"],
        security: apiKeySecurity,
        summary: doc.summary,
        params: {
          type: "object",
          properties: { public_key: { type: "string", description: "managed wallet public key" } },
          required: ["public_key"],
        },
        response: {
          200: doc.answer,
          400: errorSchema,
          404: errorSchema,
          502: errorSchema,
          503: errorSchema,
          ...authErrors,
        },
      },
    },
    async (req) => {
      const key = requireApiKey(req);
      const chain = requireChain(deps.chain);
      return read({ store: storeOf(req), chain }, key.id, req.params.public_key);
    },
  );
}
