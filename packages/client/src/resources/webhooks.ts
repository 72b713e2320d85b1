/** The client's `webhooks` group: endpoints, test deliveries, the delivery log and retries. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";
import { collect } from "../wallet-pages.js";

/** A webhook endpoint as listed (never its secret). */
export type Webhook = T.WebhookList["webhooks"][number];

/** One page of endpoints and where the next one starts (issue 29). */
export interface WebhookPage {
  webhooks: Webhook[];
  /** Pass as `after` to get the next page; null when this page is the last. */
  next_after: string | null;
}

/** The `after` of a `Link: </v1/webhooks?limit=N&after=ID>; rel="next"` header; null without a next link. */
export function nextWebhookAfterFromLink(link: string | null): string | null {
  if (link === null) return null;
  for (const part of link.split(",")) {
    if (!/;\s*rel="?next"?/.test(part)) continue;
    const after = /[?&]after=([^&>]+)/.exec(part)?.[1];
    if (after !== undefined) return decodeURIComponent(after);
  }
  return null;
}

/** Endpoints per request when the client follows the pages (the service accepts 1 to 100). */
export const DEFAULT_WEBHOOK_PAGE = 100;

/** The `webhooks` methods of a client on `http`. */
export function webhooksResource(http: Http) {
  const webhooks = {
    /** Registers an endpoint; the returned `secret` (whsec_...) is shown only here. */
    create: (input: T.WebhookInput): Promise<T.CreatedWebhook> =>
      unwrap(http.POST("/v1/webhooks", { body: input, parseAs: "text" })),
    /** The account's first page of endpoints (up to 100, without secrets); `iterate` / `listAll` follow the pages. */
    list: (): Promise<T.WebhookList> => unwrap(http.GET("/v1/webhooks", { parseAs: "text" })),
    /** One page of endpoints, oldest first, and the `after` of the next one (from the Link header). */
    page: async (query: { limit?: number; after?: string } = {}): Promise<WebhookPage> => {
      let link: string | null = null;
      const body = await unwrap<T.WebhookList>(
        http.GET("/v1/webhooks", { params: { query }, parseAs: "text" }).then((r) => {
          link = r.response.headers.get("link");
          return r;
        }),
      );
      return { webhooks: body.webhooks, next_after: nextWebhookAfterFromLink(link) };
    },
    /** Every endpoint, `pageSize` per request: `for await (const w of client.webhooks.iterate())`. */
    iterate: async function* (o: { pageSize?: number } = {}): AsyncGenerator<Webhook, void, undefined> {
      let after: string | undefined;
      for (;;) {
        const limit = o.pageSize ?? DEFAULT_WEBHOOK_PAGE;
        const page = await webhooks.page(after === undefined ? { limit } : { limit, after });
        yield* page.webhooks;
        if (page.next_after === null) return;
        after = page.next_after;
      }
    },
    /** Every endpoint of the account, following the pages. */
    listAll: (o: { pageSize?: number } = {}): Promise<Webhook[]> => collect(webhooks.iterate(o)),
    /** Deletes an endpoint and its deliveries. */
    delete: async (id: string): Promise<void> => {
      await unwrap(http.DELETE("/v1/webhooks/{id}", { params: { path: { id } }, parseAs: "text" }));
    },
    /** Queues a webhook.test delivery. */
    test: (id: string): Promise<T.WebhookDelivery> =>
      unwrap(http.POST("/v1/webhooks/{id}/test", { params: { path: { id } }, parseAs: "text" })),
    /** The endpoint's latest deliveries, newest first. */
    deliveries: (id: string): Promise<T.WebhookDeliveries> =>
      unwrap(http.GET("/v1/webhooks/{id}/deliveries", { params: { path: { id } }, parseAs: "text" })),
    /** Sends a delivery again now, with the same webhook-id. */
    retry: (id: string, deliveryId: string): Promise<T.WebhookDelivery> =>
      unwrap(
        http.POST("/v1/webhooks/{id}/deliveries/{delivery_id}/retry", {
          params: { path: { id, delivery_id: deliveryId } },
          parseAs: "text",
        }),
      ),
  };
  return webhooks;
}
