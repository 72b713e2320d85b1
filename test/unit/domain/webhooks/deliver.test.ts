/**
 * Issue 29, finding 6: one delivery attempt resolves once, judges every address, connects to the address it
 * judged (never to a later DNS answer), follows no redirect, and records only coarse outcomes.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  attemptDelivery,
  DELIVERY_ERRORS,
  outcomeOf,
  type AttemptDeps,
} from "../../../../src/domain/webhooks/deliver.js";
import { pinnedPost, type WebhookTransport } from "../../../../src/domain/webhooks/pinned-request.js";
import type { DeliveryTarget } from "../../../../src/domain/webhooks/url-policy.js";
import type { DeliveryRecord, WebhookRecord } from "../../../../src/store/index.js";
import { startReceiver, type Receiver } from "../../../events/webhook-receiver.js";
import { testVault } from "../../../helpers/app.js";

const vault = testVault();
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

function hook(url: string): WebhookRecord {
  return {
    id: "wh_t",
    apiKeyId: 1,
    url,
    types: ["*"],
    wallets: null,
    secret: vault.encryptSecret(Buffer.from("whsec_dGVzdA=="), "webhook:wh_t"),
    cursor: 0,
    disabled: false,
    disabledReason: null,
    createdAt: "2026-01-01T00:00:00.000",
  };
}
const delivery: DeliveryRecord = {
  id: "dlv_t",
  webhookId: "wh_t",
  messageId: "1",
  type: "webhook.test",
  payload: "{}",
  status: "pending",
  attempts: 0,
  nextAttemptMs: 0,
  lastStatusCode: null,
  lastError: null,
  createdAt: "2026-01-01T00:00:00.000",
  updatedAt: "2026-01-01T00:00:00.000",
};

/** A resolver that answers `answers[n]` on its n-th call (the last one after), counting the calls. */
function resolver(...answers: string[][]) {
  const r = {
    calls: 0,
    lookup: async (): Promise<string[]> => answers[Math.min(r.calls++, answers.length - 1)]!,
  };
  return r;
}

function deps(over: Partial<AttemptDeps>): AttemptDeps {
  return {
    store: {} as AttemptDeps["store"],
    vault,
    clock: () => new Date(0),
    allowPrivate: false,
    ...over,
  };
}

describe("webhook delivery outcome: coarse", () => {
  it.each([
    [
      { kind: "answered", status: 200 },
      { ok: true, gone: false, statusCode: 200, error: null },
    ],
    [
      { kind: "answered", status: 204 },
      { ok: true, gone: false, statusCode: 204, error: null },
    ],
    [
      { kind: "answered", status: 301 },
      { ok: false, gone: false, statusCode: null, error: "redirect not followed" },
    ],
    [
      { kind: "answered", status: 302 },
      { ok: false, gone: false, statusCode: null, error: "redirect not followed" },
    ],
    [
      { kind: "answered", status: 307 },
      { ok: false, gone: false, statusCode: null, error: "redirect not followed" },
    ],
    [
      { kind: "answered", status: 404 },
      { ok: false, gone: false, statusCode: 404, error: "http error" },
    ],
    [
      { kind: "answered", status: 410 },
      { ok: false, gone: true, statusCode: 410, error: "http error" },
    ],
    [
      { kind: "answered", status: 503 },
      { ok: false, gone: false, statusCode: 503, error: "http error" },
    ],
    [
      { kind: "answered", status: 999 },
      { ok: false, gone: false, statusCode: null, error: "http error" },
    ],
    [{ kind: "timeout" }, { ok: false, gone: false, statusCode: null, error: "timeout" }],
    [{ kind: "failed" }, { ok: false, gone: false, statusCode: null, error: "connection failed" }],
    ["blocked", { ok: false, gone: false, statusCode: null, error: "blocked address" }],
    ["unresolvable", { ok: false, gone: false, statusCode: null, error: "connection failed" }],
  ] as const)("%j → %j", (answer, outcome) => {
    expect(outcomeOf(answer)).toEqual(outcome);
    if (outcome.error !== null) expect(Object.values(DELIVERY_ERRORS)).toContain(outcome.error);
  });
});

describe("webhook delivery: resolved once, pinned to the checked address", () => {
  it("a name answering public, then 127.0.0.1, is sent to the public address; the next attempt is blocked", async () => {
    const dns = resolver(["93.184.216.34"], ["127.0.0.1"]);
    const targets: DeliveryTarget[] = [];
    const transport: WebhookTransport = async (target) => {
      targets.push(target);
      return { kind: "answered", status: 200 };
    };
    const d = deps({ lookup: dns.lookup, transport });
    const w = hook("https://rebind.example/hook");
    expect(await attemptDelivery(d, w, delivery, 1000)).toMatchObject({ ok: true });
    expect(dns.calls).toBe(1);
    expect(targets.map((t) => [t.address, t.url.hostname])).toEqual([["93.184.216.34", "rebind.example"]]);
    expect(await attemptDelivery(d, w, delivery, 1000)).toMatchObject({
      ok: false,
      error: "blocked address",
    });
    expect(dns.calls).toBe(2);
    expect(targets.length).toBe(1);
  });

  it("one blocked address among the answers refuses the delivery; a failed resolution is a connection failure", async () => {
    let sent = 0;
    const transport: WebhookTransport = async () => {
      sent++;
      return { kind: "answered", status: 200 };
    };
    const both = resolver(["93.184.216.34", "127.0.0.1"]);
    expect(
      await attemptDelivery(
        deps({ lookup: both.lookup, transport }),
        hook("http://a.example/"),
        delivery,
        1000,
      ),
    ).toMatchObject({ error: "blocked address", statusCode: null });
    const mapped = resolver(["64:ff9b::7f00:1"]);
    expect(
      await attemptDelivery(
        deps({ lookup: mapped.lookup, transport }),
        hook("http://b.example/"),
        delivery,
        1000,
      ),
    ).toMatchObject({ error: "blocked address" });
    const none = deps({
      lookup: async () => Promise.reject(new Error("ENOTFOUND internal.corp")),
      transport,
    });
    expect(await attemptDelivery(none, hook("http://internal.corp/"), delivery, 1000)).toMatchObject({
      error: "connection failed",
    });
    expect(
      await attemptDelivery(deps({ transport }), hook("http://[::ffff:10.0.0.1]/"), delivery, 1000),
    ).toMatchObject({
      error: "blocked address",
    });
    expect(sent).toBe(0);
  });

  it("the socket connects to the pinned address, not to what the host name resolves to", async () => {
    const r = await startReceiver();
    receivers.push(r);
    const port = new URL(r.url).port;
    // `.invalid` never resolves: the request arrives only because the connection goes to the pinned address.
    const url = new URL(`http://rebind.invalid:${port}/hook?x=1`);
    const answer = await pinnedPost(
      { url, address: "127.0.0.1", family: 4 },
      { headers: { "content-type": "application/json" }, body: '{"a":1}', timeoutMs: 5000 },
    );
    expect(answer).toEqual({ kind: "answered", status: 200 });
    expect(r.received.map((x) => [x.path, x.headers.host, x.body])).toEqual([
      ["/hook?x=1", `rebind.invalid:${port}`, '{"a":1}'],
    ]);
  });

  it("a public address first and 127.0.0.1 second never reaches the loopback receiver", async () => {
    const r = await startReceiver();
    receivers.push(r);
    const port = new URL(r.url).port;
    // 192.0.2.1 (TEST-NET-1) is not a blocked range and routes nowhere: the attempt fails or times out.
    const dns = resolver(["192.0.2.1"], ["127.0.0.1"]);
    const outcome = await attemptDelivery(
      deps({ lookup: dns.lookup }),
      hook(`http://rebind.test:${port}/hook`),
      delivery,
      300,
    );
    expect(outcome.ok).toBe(false);
    expect(["timeout", "connection failed"]).toContain(outcome.error);
    expect(outcome.statusCode).toBeNull();
    expect(dns.calls).toBe(1);
    expect(r.received).toEqual([]);
  });

  it("a redirect to a loopback port is not followed", async () => {
    const target = await startReceiver();
    const moved = await startReceiver();
    receivers.push(target, moved);
    moved.answer = () => ({ status: 307, location: target.url });
    const outcome = await attemptDelivery(deps({ allowPrivate: true }), hook(moved.url), delivery, 5000);
    expect(outcome).toEqual({ ok: false, gone: false, statusCode: null, error: "redirect not followed" });
    expect(moved.received.length).toBe(1);
    expect(target.received).toEqual([]);
  });
});
