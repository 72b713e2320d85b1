/**
 * Issue 29, findings 6 and 7, probed as an attacker would against the app on a localnet: the webhook cap holds
 * (also under a burst of parallel creations), the listing is paged, a redirect to another loopback port is not
 * followed, a name that rebinds to loopback after creation is not reached, and delivery rows only show coarse
 * errors. Each probe also checks that nothing moved on chain (the account's wallet balance).
 */
import { describe, expect, it } from "vitest";
import { EVENTS } from "../../src/core/errors.js";
import { DELIVERY_ERRORS } from "../../src/domain/webhooks/deliver.js";
import { sendDueOnce, type WebhookWorkerDeps } from "../../src/domain/webhooks/worker.js";
import { startReceiver, type Receiver } from "../events/webhook-receiver.js";
import { useE2e } from "../helpers/use-e2e.js";

const e2e = useE2e();
const CAP = 20; // MAX_WEBHOOKS_PER_ACCOUNT's default

interface Delivery {
  status: string;
  last_status_code: number | null;
  last_error: string | null;
}

/** A worker pass as the service runs it outside the sandbox (private addresses refused) unless told otherwise. */
function worker(over: Partial<WebhookWorkerDeps> = {}): WebhookWorkerDeps {
  return {
    store: e2e.store,
    vault: e2e.vault,
    clock: () => new Date(),
    owner: `probe-${Math.random()}`,
    allowPrivate: false,
    delays: [600_000],
    timeoutMs: 2_000,
    ...over,
  };
}

async function withReceivers<T>(n: number, f: (r: Receiver[]) => Promise<T>): Promise<T> {
  const rs = await Promise.all(Array.from({ length: n }, () => startReceiver()));
  try {
    return await f(rs);
  } finally {
    await Promise.all(rs.map((r) => r.close()));
  }
}

async function hookOf(apiKey: string, url: string): Promise<string> {
  const res = await e2e.post(apiKey, "/v1/webhooks", { url, types: ["*"] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Queues a webhook.test delivery, runs one pass of `w`, returns the delivery as the API shows it. */
async function deliverOnce(apiKey: string, id: string, w: WebhookWorkerDeps): Promise<Delivery> {
  expect((await e2e.post(apiKey, `/v1/webhooks/${id}/test`)).statusCode).toBe(202);
  await sendDueOnce(w);
  return (await e2e.get(apiKey, `/v1/webhooks/${id}/deliveries`)).json<{ deliveries: Delivery[] }>()
    .deliveries[0]!;
}

describe("security probes: webhooks (issue 29, findings 6 and 7)", () => {
  it("caps endpoints per account: the 21st is a 409, and a parallel burst makes exactly 20", async () => {
    const a = await e2e.setup();
    const before = await e2e.balance(a.wallet);
    for (let i = 0; i < CAP; i++) await hookOf(a.apiKey, `https://hooks.example/${i}`);
    const over = await e2e.post(a.apiKey, "/v1/webhooks", { url: "https://hooks.example/x", types: ["*"] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({
      code: "events.webhook_limit",
      detail: EVENTS.webhookLimit(CAP),
      max_webhooks: CAP,
    });

    const b = await e2e.setup();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        e2e.post(b.apiKey, "/v1/webhooks", { url: `https://hooks.example/b${i}`, types: ["*"] }),
      ),
    );
    expect(burst.filter((r) => r.statusCode === 201).length).toBe(CAP);
    expect(burst.filter((r) => r.statusCode === 409).length).toBe(30 - CAP);
    expect((await e2e.store.listWebhooks((await keyIdOf(b.apiKey))!)).length).toBe(CAP);
    expect(await e2e.balance(a.wallet)).toBe(before);
  });

  it("pages GET /v1/webhooks: limit/after with a Link header; a bad page is a 400", async () => {
    const a = await e2e.setup();
    const before = await e2e.balance(a.wallet);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await hookOf(a.apiKey, `https://hooks.example/p${i}`));
    const seen: string[] = [];
    let url: string | undefined = "/v1/webhooks?limit=3";
    while (url !== undefined) {
      const res = await e2e.get(a.apiKey, url);
      seen.push(...res.json<{ webhooks: { id: string }[] }>().webhooks.map((w) => w.id));
      const link = res.headers.link as string | undefined;
      url = link === undefined ? undefined : /^<([^>]+)>/.exec(link)![1];
    }
    expect(seen).toEqual(ids);
    expect((await e2e.get(a.apiKey, "/v1/webhooks?limit=1000")).statusCode).toBe(400);
    expect(await e2e.balance(a.wallet)).toBe(before);
  });

  it("does not follow a redirect to another loopback port", async () => {
    await withReceivers(2, async ([moved, target]) => {
      moved!.answer = () => ({ status: 302, location: target!.url });
      const a = await e2e.setup();
      const before = await e2e.balance(a.wallet);
      const id = await hookOf(a.apiKey, moved!.url);
      // The sandbox lets a webhook reach loopback (its receivers are local); the redirect still is not followed.
      const d = await deliverOnce(a.apiKey, id, worker({ allowPrivate: true }));
      expect(moved!.received.length).toBe(1);
      expect(target!.received).toEqual([]);
      expect(d).toMatchObject({
        status: "pending",
        last_status_code: null,
        last_error: DELIVERY_ERRORS.redirect,
      });
      expect(await e2e.balance(a.wallet)).toBe(before);
    });
  });

  it("a name that resolves to 127.0.0.1 at delivery (rebinding after creation) is not reached", async () => {
    await withReceivers(1, async ([inside]) => {
      const a = await e2e.setup();
      const before = await e2e.balance(a.wallet);
      const port = new URL(inside!.url).port;
      const id = await hookOf(a.apiKey, `http://rebind.example:${port}/hook`);
      const d = await deliverOnce(a.apiKey, id, worker({ lookup: async () => ["127.0.0.1"] }));
      expect(d).toMatchObject({ last_status_code: null, last_error: DELIVERY_ERRORS.blocked });
      // An IPv6 transition form of the metadata address is refused the same way.
      const nat64 = await deliverOnce(a.apiKey, id, worker({ lookup: async () => ["64:ff9b::a9fe:a9fe"] }));
      expect(nat64).toMatchObject({ last_error: DELIVERY_ERRORS.blocked });
      expect(inside!.received).toEqual([]);
      expect(await e2e.balance(a.wallet)).toBe(before);
    });
  });

  it("delivery rows show coarse errors only: no port-scan oracle in last_error / last_status_code", async () => {
    await withReceivers(2, async ([closed, notFound]) => {
      const closedUrl = closed!.url;
      await closed!.close(); // its port now refuses connections
      notFound!.answer = () => 404;
      const a = await e2e.setup();
      const before = await e2e.balance(a.wallet);
      const open = worker({ allowPrivate: true });
      const rows = [
        await deliverOnce(a.apiKey, await hookOf(a.apiKey, closedUrl), open),
        await deliverOnce(a.apiKey, await hookOf(a.apiKey, notFound!.url), open),
        // A name the resolver does not know (an internal name, say) reads like a refused connection.
        await deliverOnce(
          a.apiKey,
          await hookOf(a.apiKey, "http://unknown.internal/h"),
          worker({
            allowPrivate: true,
            lookup: () => Promise.reject(new Error("ENOTFOUND unknown.internal")),
          }),
        ),
      ];
      expect(rows.map((d) => [d.last_status_code, d.last_error])).toEqual([
        [null, DELIVERY_ERRORS.connection],
        [404, DELIVERY_ERRORS.http],
        [null, DELIVERY_ERRORS.connection],
      ]);
      for (const d of rows) expect(Object.values<string | null>(DELIVERY_ERRORS)).toContain(d.last_error);
      expect(await e2e.balance(a.wallet)).toBe(before);
    });
  });
});

async function keyIdOf(apiKey: string): Promise<number | undefined> {
  return (await e2e.store.findApiKeyByHash(e2e.vault.hashApiKey(apiKey)))?.id;
}
