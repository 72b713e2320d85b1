/** One pass of the webhook worker: one listing of the endpoints, and no lease taken when none is enabled. */
import { describe, expect, it } from "vitest";
import { startWebhookWorker, type WebhookWorkerDeps } from "../../../../src/domain/webhooks/worker.js";
import type { WebhookRecord } from "../../../../src/store/index.js";

function fakeStore(enabled: WebhookRecord[]) {
  const calls = { list: 0, claim: 0 };
  let wake: (() => void) | undefined;
  const store = {
    listEnabledWebhooks: async () => {
      calls.list++;
      return enabled;
    },
    eventBounds: async () => ({ first: 0, last: 0 }),
    listEvents: async () => [],
    insertDeliveries: async () => undefined,
    advanceWebhookCursor: async () => true,
    claimDueDeliveries: async () => {
      calls.claim++;
      return [];
    },
    finishDelivery: async () => undefined,
    disableWebhook: async () => undefined,
    onEventWake: (listener: () => void) => {
      wake = listener;
      return () => (wake = undefined);
    },
  };
  return { store, calls, wake: () => wake?.() };
}

async function onePass(enabled: WebhookRecord[]) {
  const fake = fakeStore(enabled);
  const stop = startWebhookWorker({
    store: fake.store as unknown as WebhookWorkerDeps["store"] &
      Parameters<typeof startWebhookWorker>[0]["store"],
    vault: { decryptSecret: () => new Uint8Array(0) },
    clock: () => new Date(0),
    owner: "test",
    allowPrivate: true,
    intervalMs: 60_000,
  });
  // The first pass starts at once; its fakes answer immediately, so a few turns of the event loop finish it.
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  await stop();
  return fake.calls;
}

describe("webhook worker pass", () => {
  it("with no enabled endpoint lists them once and leases nothing", async () => {
    expect(await onePass([])).toEqual({ list: 1, claim: 0 });
  });

  it("with an enabled endpoint lists them once and leases the due deliveries", async () => {
    const w = { id: "wh_1", apiKeyId: 1, cursor: 0, types: ["*"], wallets: null } as unknown as WebhookRecord;
    expect(await onePass([w])).toEqual({ list: 1, claim: 1 });
  });
});
