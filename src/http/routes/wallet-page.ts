/**
 * Optional paging of GET /v1/wallets: `limit` (1-1000) wallets with an id above `after`. The answer stays the
 * spec's array; when more wallets follow, a `Link: <…>; rel="next"` header names the next page.
 */
import type { WalletView } from "../../domain/wallets/wallets.js";

export const MAX_WALLET_PAGE = 1000;

/** The query string schema (validated by Fastify; also the OpenAPI parameters). */
export const walletPageQuery = {
  type: "object",
  properties: {
    limit: {
      type: "integer",
      minimum: 1,
      maximum: MAX_WALLET_PAGE,
      description: "Page size; without it every wallet of the key is listed.",
    },
    after: {
      type: "integer",
      minimum: 0,
      description: "Only wallets whose id is greater than this (the last id of the previous page).",
    },
  },
  additionalProperties: false,
} as const;

export const walletPageHeaders = {
  Link: {
    description: 'The next page when `limit` cut the list: `</v1/wallets?limit=N&after=ID>; rel="next"`.',
    type: "string",
  },
} as const;

/** The page of `all` (ordered by id) the query asks for, and the Link header value of the next one. */
export function walletPage(
  all: readonly WalletView[],
  query: { limit?: number; after?: number },
): { items: WalletView[]; next?: string } {
  const after = query.after ?? 0;
  const rest = all.filter((w) => w.id > after);
  if (query.limit === undefined || rest.length <= query.limit) return { items: rest };
  const items = rest.slice(0, query.limit);
  const last = items[items.length - 1]?.id ?? after;
  return { items, next: `</v1/wallets?limit=${query.limit}&after=${last}>; rel="next"` };
}
