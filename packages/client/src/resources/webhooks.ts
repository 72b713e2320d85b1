/** The client's `webhooks` group: endpoints, test deliveries, the delivery log and retries. */
import { unwrap, type Http } from "../call.js";
import type * as T from "../types.js";

/** The `webhooks` methods of a client on `http`. */
export function webhooksResource(http: Http) {
  return {
    /** Registers an endpoint; the returned `secret` (whsec_...) is shown only here. */
    create: (input: T.WebhookInput): Promise<T.CreatedWebhook> =>
      unwrap(http.POST("/v1/webhooks", { body: input, parseAs: "text" })),
    /** The key's endpoints (without secrets). */
    list: (): Promise<T.WebhookList> => unwrap(http.GET("/v1/webhooks", { parseAs: "text" })),
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
}
