/** The client's `wallets` group: create, import, list and page, one wallet, set the default, balances, delink. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";
import { collect, everyWallet, walletPage, type WalletPage } from "../wallet-pages.js";

/** The `wallets` methods of a client on `http`. */
export function walletsResource(http: Http) {
  const wallets = {
    /** Creates a wallet; its secret key is in the response, once. */
    create: (input: { set_default?: boolean } = {}): Promise<T.CreatedWallet> =>
      unwrap(http.POST("/v1/wallets", { body: input, parseAs: "text" })),
    /** Imports a wallet from a base58 64-byte secret key or 32-byte seed. */
    import: (input: T.ImportWalletInput): Promise<T.Wallet> =>
      unwrap(http.POST("/v1/wallets/import", { body: input, parseAs: "text" })),
    /** The key's wallets, oldest first (public metadata only): all, or `limit` after the wallet id `after`. */
    list: (query: { limit?: number; after?: number } = {}): Promise<T.Wallet[]> =>
      unwrap(http.GET("/v1/wallets", { params: { query }, parseAs: "text" })),
    /** One page of wallets and the `after` of the next one (from the Link header; null on the last page). */
    page: (query: { limit: number; after?: number }): Promise<WalletPage<T.Wallet>> =>
      walletPage(unwrap, http.GET("/v1/wallets", { params: { query }, parseAs: "text" })),
    /** Every wallet, `pageSize` (default 200) per request: `for await (const w of client.wallets.iterate())`. */
    iterate: (o: { pageSize?: number } = {}): AsyncGenerator<T.Wallet, void, undefined> =>
      everyWallet((q) => wallets.page(q), o.pageSize),
    /** Every wallet of the key, following the pages (issue 23). */
    listAll: (o: { pageSize?: number } = {}): Promise<T.Wallet[]> => collect(wallets.iterate(o)),
    /** Makes a wallet the key's default. */
    setDefault: (publicKey: string): Promise<T.Wallet> =>
      unwrap(
        http.PUT("/v1/wallets/{public_key}/default", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
    /** One of the key's wallets with its durable nonce account (address, whether it exists, rent, value). */
    get: (publicKey: string): Promise<T.WalletDetail> =>
      unwrap(
        http.GET("/v1/wallets/{public_key}", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
    /** SOL and every token account of one of the key's wallets (read from the chain). */
    balances: (publicKey: string): Promise<T.WalletBalances> =>
      unwrap(
        http.GET("/v1/wallets/{public_key}/balances", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
    /** Delinks a wallet (its encrypted key and history are deleted; the on-chain wallet is unchanged). */
    delink: (publicKey: string): Promise<T.DelinkResult> =>
      unwrap(
        http.DELETE("/v1/wallets/{public_key}", {
          params: { path: { public_key: publicKey } },
          parseAs: "text",
        }),
      ),
  };
  return wallets;
}
