/**
 * Webhooks on SQLite and PostgreSQL: endpoint CRUD, URL policy (SSRF), signed deliveries verified with the
 * `standardwebhooks` package, retries on the schedule with the same webhook-id, 410 disables, test and manual
 * retry, redirects not followed, and the delivery lease (two senders, a dead sender's rows taken over).
 */
import type { FastifyInstance } from "fastify";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { EVENTS } from "../../src/core/errors.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import { fanOutOnce, sendDueOnce, type WebhookWorkerDeps } from "../../src/domain/webhooks/worker.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";
import { sharedSerializers } from "../helpers/shared-serializers.js";
import { expectAuthRequired } from "../helpers/security.js";
import { startReceiver, type Receiver } from "./webhook-receiver.js";

const vault = testVault();

function suite(name: string, open: () => Promise<Store>, cleanup: () => Promise<void>): void {
  describe(`webhooks on ${name}`, () => {
    let store: Store;
    let app: FastifyInstance;
    let strict: FastifyInstance;
    let offsetMs = 0;
    const clock = () => new Date(Date.now() + offsetMs);
    const receivers: Receiver[] = [];
    beforeAll(async () => {
      store = await open();
      const common = {
        store,
        vault,
        clock,
        rateLimiter: storeRateLimiter(store),
        schemaController: sharedSerializers,
      };
      app = await buildApp({ ...common, config: loadConfig({}) });
      // Outside the sandbox, private addresses allowed only with WEBHOOK_ALLOW_PRIVATE=true.
      strict = await buildApp({
        ...common,
        config: { ...loadConfig({}), sandbox: false },
        webhookLookup: async (host) => (host === "internal.example" ? ["10.1.2.3"] : ["93.184.216.34"]),
      });
    });
    afterEach(() => {
      offsetMs = 0;
    });
    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await app?.close();
      await strict?.close();
      await store?.close();
      await cleanup();
    });

    const worker = (owner = "w1", over: Partial<WebhookWorkerDeps> = {}): WebhookWorkerDeps => ({
      store,
      vault,
      clock,
      owner,
      allowPrivate: true,
      delays: [5_000, 10_000],
      ...over,
    });
    const pass = async (w = worker()) => {
      await fanOutOnce(w);
      return sendDueOnce(w);
    };

    async function setup(on = app): Promise<{ apiKey: string; wallet: string; keyId: number }> {
      const res = await on.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
      const body = res.json<{ api_key: string; wallet_public_key: string }>();
      const key = await store.findApiKeyByHash(vault.hashApiKey(body.api_key));
      return { apiKey: body.api_key, wallet: body.wallet_public_key, keyId: key!.id };
    }
    const call = (
      apiKey: string,
      method: "GET" | "POST" | "DELETE",
      url: string,
      payload?: unknown,
      on = app,
    ) =>
      on.inject({
        method,
        url,
        headers: { "x-api-key": apiKey },
        ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      });
    async function receiverHook(apiKey: string, body: Record<string, unknown> = {}) {
      const r = await startReceiver();
      receivers.push(r);
      const res = await call(apiKey, "POST", "/v1/webhooks", { url: r.url, types: ["*"], ...body });
      expect(res.statusCode, res.body).toBe(201);
      return { receiver: r, hook: res.json<{ id: string; secret: string }>() };
    }
    const execution = (keyId: number, wallet: string) =>
      recordPending(store, {
        apiKeyId: keyId,
        kind: "trade",
        wallet,
        signatures: ["s"],
        request: {},
        lastValidBlockHeight: 1,
      });

    it("creates (secret once), lists without the secret, deletes; 404 for another key", async () => {
      const a = await setup();
      const b = await setup();
      const created = await call(a.apiKey, "POST", "/v1/webhooks", {
        url: "https://example.com/hook",
        types: ["execution.confirmed", "execution.failed"],
        wallets: [a.wallet],
      });
      expect(created.statusCode).toBe(201);
      const hook = created.json<{ id: string; secret: string }>();
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      expect(created.json()).toMatchObject({
        url: "https://example.com/hook",
        wallets: [a.wallet],
        disabled: false,
      });
      const list = await call(a.apiKey, "GET", "/v1/webhooks");
      expect(list.json()).toEqual({
        webhooks: [expect.objectContaining({ id: hook.id, disabled: false, disabled_reason: null })],
      });
      expect(list.body).not.toContain("whsec_");
      expect((await call(b.apiKey, "GET", "/v1/webhooks")).json()).toEqual({ webhooks: [] });
      expect((await call(b.apiKey, "DELETE", `/v1/webhooks/${hook.id}`)).statusCode).toBe(404);
      expect((await call(b.apiKey, "POST", `/v1/webhooks/${hook.id}/test`)).json()).toEqual({
        code: "events.webhook_not_found",
        detail: EVENTS.webhookNotFound,
      });
      expect((await call(a.apiKey, "DELETE", `/v1/webhooks/${hook.id}`)).statusCode).toBe(204);
      expect((await call(a.apiKey, "GET", `/v1/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
      // Ids that cannot be ours (a NUL byte would make PostgreSQL fail) are simply not found.
      expect((await call(a.apiKey, "GET", "/v1/webhooks/%00/deliveries")).statusCode).toBe(404);
      expect((await call(a.apiKey, "GET", "/v1/executions/%00?wait=1")).statusCode).toBe(404);
    });

    it("400 on bad input", async () => {
      const a = await setup();
      const cases: [unknown, string][] = [
        [{ url: "ftp://example.com", types: ["*"] }, EVENTS.webhookUrlInvalid],
        [{ url: "https://u:p@example.com", types: ["*"] }, EVENTS.webhookUrlInvalid],
        [{ url: "not a url", types: ["*"] }, EVENTS.webhookUrlInvalid],
        [{ url: 5, types: ["*"] }, EVENTS.webhookUrlInvalid],
        [{ url: "https://example.com", types: [] }, EVENTS.webhookTypesInvalid],
        [{ url: "https://example.com", types: ["Bad Type"] }, EVENTS.webhookTypesInvalid],
        [{ url: "https://example.com", types: "execution.confirmed" }, EVENTS.webhookTypesInvalid],
        [{ url: "https://example.com", types: ["*"], wallets: ["nope"] }, EVENTS.webhookWalletsInvalid],
      ];
      for (const [body, detail] of cases) {
        const res = await call(a.apiKey, "POST", "/v1/webhooks", body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toEqual({ code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/), detail });
      }
    });

    it("refuses loopback, private, link-local and metadata URLs outside the sandbox", async () => {
      const a = await setup(strict);
      for (const url of [
        "http://127.0.0.1/x",
        "http://localhost:8080/x",
        "http://10.0.0.5/x",
        "http://192.168.1.1/x",
        "http://172.16.3.4/x",
        "http://169.254.169.254/latest/meta-data",
        "http://100.100.100.200/",
        "http://[::1]/x",
        "http://[fd00:ec2::254]/x",
        "http://[fe80::1]/x",
        "http://[::ffff:127.0.0.1]/x",
        "http://0.0.0.0/x",
        "https://internal.example/x",
      ]) {
        const res = await call(a.apiKey, "POST", "/v1/webhooks", { url, types: ["*"] }, strict);
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ code: "events.webhook_url_private", detail: EVENTS.webhookUrlPrivate });
      }
      const ok = await call(
        a.apiKey,
        "POST",
        "/v1/webhooks",
        { url: "https://public.example/x", types: ["*"] },
        strict,
      );
      expect(ok.statusCode).toBe(201);
    });

    it("delivers every matching event, signed (verified by standardwebhooks), webhook-id = event id", async () => {
      const a = await setup();
      const { receiver, hook } = await receiverHook(a.apiKey);
      const confirmedOnly = await receiverHook(a.apiKey, { types: ["execution.confirmed"] });
      const otherWallet = await receiverHook(a.apiKey, { wallets: ["11111111111111111111111111111112"] });
      const id = await execution(a.keyId, a.wallet);
      await recordOutcome(store, id, { status: "confirmed", confirmationStatus: "confirmed" });
      const report = await pass();
      expect(report.delivered).toBe(3);
      expect(receiver.received.length).toBe(2);
      const verifier = new Webhook(hook.secret);
      const bodies = receiver.received.map((r) => {
        const payload = verifier.verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          timestamp: string;
          data: { id: number; execution_id: string; type: string };
        };
        expect(r.headers["webhook-id"]).toBe(String(payload.data.id));
        expect(r.headers["content-type"]).toBe("application/json");
        return payload;
      });
      expect(bodies.map((b) => [b.type, b.data.execution_id])).toEqual([
        ["execution.pending", id],
        ["execution.confirmed", id],
      ]);
      // A wrong secret does not verify.
      expect(() =>
        new Webhook("whsec_" + Buffer.alloc(32, 1).toString("base64")).verify(
          receiver.received[0]!.body,
          receiver.received[0]!.headers as Record<string, string>,
        ),
      ).toThrow();
      expect(
        confirmedOnly.receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type),
      ).toEqual(["execution.confirmed"]);
      expect(otherWallet.receiver.received).toEqual([]);
      // Nothing is sent twice.
      expect((await pass()).attempted).toBe(0);
      const deliveries = (await call(a.apiKey, "GET", `/v1/webhooks/${hook.id}/deliveries`)).json<{
        deliveries: { status: string; attempts: number; last_status_code: number }[];
      }>();
      expect(deliveries.deliveries.map((d) => [d.status, d.attempts, d.last_status_code])).toEqual([
        ["delivered", 1, 200],
        ["delivered", 1, 200],
      ]);
    });

    it("retries a failure on the schedule with the same webhook-id and body; fails for good after the last", async () => {
      const a = await setup();
      const { receiver, hook } = await receiverHook(a.apiKey);
      receiver.answer = (n) => (n < 2 ? 500 : 200);
      await execution(a.keyId, a.wallet);
      expect((await pass()).failed).toBe(1);
      // Not due yet.
      expect((await pass()).attempted).toBe(0);
      offsetMs = 5_000;
      expect((await pass()).failed).toBe(1);
      offsetMs = 14_000;
      expect((await pass()).attempted).toBe(0);
      offsetMs = 16_000;
      expect((await pass()).delivered).toBe(1);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      const verifier = new Webhook(hook.secret);
      // Each attempt is signed with its own timestamp; all verify (within the package's 5-minute tolerance).
      for (const r of receiver.received)
        expect(() => verifier.verify(r.body, r.headers as Record<string, string>)).not.toThrow();

      const down = await receiverHook(a.apiKey);
      down.receiver.answer = () => 503;
      await execution(a.keyId, a.wallet);
      offsetMs = 20_000;
      await pass();
      offsetMs = 26_000;
      await pass();
      offsetMs = 37_000;
      await pass();
      const [d] = (await call(a.apiKey, "GET", `/v1/webhooks/${down.hook.id}/deliveries`)).json<{
        deliveries: {
          id: string;
          status: string;
          attempts: number;
          next_attempt_at: string | null;
          message_id: string;
        }[];
      }>().deliveries;
      expect(d).toMatchObject({ status: "failed", attempts: 3, next_attempt_at: null });
      // A manual retry sends it again with the same webhook-id.
      down.receiver.answer = () => 204;
      const retried = await call(a.apiKey, "POST", `/v1/webhooks/${down.hook.id}/deliveries/${d!.id}/retry`);
      expect(retried.statusCode).toBe(202);
      expect(retried.json()).toMatchObject({ status: "pending", message_id: d!.message_id });
      expect((await pass()).delivered).toBeGreaterThanOrEqual(1);
      expect(down.receiver.received.at(-1)!.headers["webhook-id"]).toBe(d!.message_id);
      expect(
        (await call(a.apiKey, "POST", `/v1/webhooks/${down.hook.id}/deliveries/dlv_nope/retry`)).json(),
      ).toEqual({ code: "events.delivery_not_found", detail: EVENTS.deliveryNotFound });
    });

    it("a 410 disables the endpoint; redirects are not followed; the test delivery is webhook.test", async () => {
      const a = await setup();
      const gone = await receiverHook(a.apiKey);
      gone.receiver.answer = () => 410;
      const moved = await receiverHook(a.apiKey);
      const target = await startReceiver();
      receivers.push(target);
      moved.receiver.answer = () => ({ status: 302, location: target.url });
      await execution(a.keyId, a.wallet);
      await pass();
      const list = (await call(a.apiKey, "GET", "/v1/webhooks")).json<{
        webhooks: { id: string; disabled: boolean; disabled_reason: string | null }[];
      }>().webhooks;
      expect(list.find((w) => w.id === gone.hook.id)).toMatchObject({ disabled: true });
      expect(list.find((w) => w.id === gone.hook.id)!.disabled_reason).toContain("410");
      expect(list.find((w) => w.id === moved.hook.id)).toMatchObject({ disabled: false });
      expect(target.received).toEqual([]);
      const movedDeliveries = (await call(a.apiKey, "GET", `/v1/webhooks/${moved.hook.id}/deliveries`)).json<{
        deliveries: { status: string; last_error: string; last_status_code: number | null }[];
      }>().deliveries;
      // Issue 29: a coarse text, and no status for a redirect.
      expect(movedDeliveries[0]).toMatchObject({
        status: "pending",
        last_error: "redirect not followed",
        last_status_code: null,
      });
      // Disabled: no more deliveries.
      await execution(a.keyId, a.wallet);
      await pass();
      expect(gone.receiver.received.length).toBe(1);

      const ok = await receiverHook(a.apiKey);
      const test = await call(a.apiKey, "POST", `/v1/webhooks/${ok.hook.id}/test`);
      expect(test.statusCode).toBe(202);
      expect(test.json()).toMatchObject({ type: "webhook.test", status: "pending" });
      await pass();
      const got = ok.receiver.received.find((r) => r.headers["webhook-id"]?.toString().startsWith("test_"));
      expect(got).toBeDefined();
      const body = new Webhook(ok.hook.secret).verify(got!.body, got!.headers as Record<string, string>);
      expect(body).toMatchObject({ type: "webhook.test", data: { webhook_id: ok.hook.id } });
    });

    it("leases deliveries: two senders never send one twice; a dead sender's deliveries are sent after its lease", async () => {
      const a = await setup();
      const { receiver } = await receiverHook(a.apiKey);
      for (let i = 0; i < 20; i++) await execution(a.keyId, a.wallet);
      await fanOutOnce(worker("w1"));
      await Promise.all([sendDueOnce(worker("w1")), sendDueOnce(worker("w2")), sendDueOnce(worker("w3"))]);
      const ids = receiver.received.map((r) => r.headers["webhook-id"]);
      expect(ids.length).toBe(20);
      expect(new Set(ids).size).toBe(20);

      // A process claims and dies (kill -9): nobody else sends until its lease ends, then one does.
      await execution(a.keyId, a.wallet);
      await fanOutOnce(worker("dead"));
      const nowMs = clock().getTime();
      expect((await store.claimDueDeliveries("dead", nowMs, nowMs + 30_000, 100)).length).toBe(1);
      expect((await sendDueOnce(worker("w2"))).attempted).toBe(0);
      offsetMs = 31_000;
      expect((await sendDueOnce(worker("w2"))).delivered).toBe(1);
      expect(receiver.received.length).toBe(21);
    });

    it("refuses missing and unknown keys", async () => {
      for (const [m, u] of [
        ["POST", "/v1/webhooks"],
        ["GET", "/v1/webhooks"],
        ["DELETE", "/v1/webhooks/wh_x"],
        ["POST", "/v1/webhooks/wh_x/test"],
        ["GET", "/v1/webhooks/wh_x/deliveries"],
        ["POST", "/v1/webhooks/wh_x/deliveries/d/retry"],
      ] as const)
        await expectAuthRequired(app, m, u, { url: "https://example.com", types: ["*"] });
    });
  });
}

suite(
  "sqlite",
  () => openStore("sqlite::memory:", "./data"),
  async () => {},
);
if (TEST_DATABASE_URL !== undefined) {
  const url = TEST_DATABASE_URL;
  const schema = freshSchemaName("evhooks");
  suite(
    "postgres",
    () => openStore(url, "./data", { pgSchema: schema }),
    () => dropSchema(url, schema),
  );
}
