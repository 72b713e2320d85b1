/**
 * Issue 23: GET /v1/wallets pages with `limit` / `after` (the answer stays the spec's array; the next page is
 * named in the `Link` header). These helpers follow the pages for the client.
 */

/** One page of wallets and where the next one starts (null on the last page). */
export interface WalletPage<W> {
  wallets: W[];
  /** Pass as `after` to get the next page; null when this page is the last. */
  next_after: number | null;
}

/** The `after` of a `Link: </v1/wallets?limit=N&after=ID>; rel="next"` header; null without a next link. */
export function nextAfterFromLink(link: string | null): number | null {
  if (link === null) return null;
  for (const part of link.split(",")) {
    if (!/;\s*rel="?next"?/.test(part)) continue;
    const after = /[?&]after=(\d+)/.exec(part)?.[1];
    if (after !== undefined) return Number(after);
  }
  return null;
}

/** Wallets per request when the client follows the pages (the service accepts 1 to 1000). */
export const DEFAULT_WALLET_PAGE = 200;

/** A page from an openapi-fetch GET /v1/wallets call: `unwrap` parses its body, its Link header names the next. */
export async function walletPage<W, R extends { response: Response }>(
  unwrap: (call: Promise<R>) => Promise<W[]>,
  call: Promise<R>,
): Promise<WalletPage<W>> {
  let link: string | null = null;
  const wallets = await unwrap(
    call.then((r) => {
      link = r.response.headers.get("link");
      return r;
    }),
  );
  return { wallets, next_after: nextAfterFromLink(link) };
}

/** Every item of an async iterable, in order (Array.fromAsync is newer than Node 20). */
export async function collect<W>(items: AsyncIterable<W>): Promise<W[]> {
  const all: W[] = [];
  for await (const w of items) all.push(w);
  return all;
}

/** Pages through every wallet with `fetchPage`, `pageSize` at a time, yielding each wallet once, oldest first. */
export async function* everyWallet<W>(
  fetchPage: (query: { limit: number; after?: number }) => Promise<WalletPage<W>>,
  pageSize = DEFAULT_WALLET_PAGE,
): AsyncGenerator<W, void, undefined> {
  let after: number | undefined;
  for (;;) {
    const page = await fetchPage(after === undefined ? { limit: pageSize } : { limit: pageSize, after });
    yield* page.wallets;
    if (page.next_after === null) return;
    after = page.next_after;
  }
}
