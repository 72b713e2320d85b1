/**
 * Issue 30: every timestamp the API emits that the spec does not fix is RFC 3339 with Z — keys (created_at
 * beside expires_at: `keys list` showed two forms in one table), executions, events, webhooks, deliveries,
 * activity — while the spec's wallet created_at keeps its form (no zone suffix).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";

const RFC3339_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/;

describe("timestamps on the wire", () => {
  let app: FastifyInstance;
  let store: Store;
  const vault = testVault();
  beforeAll(async () => {
    store = await openStore("sqlite::memory:", "./data");
    app = await buildApp({
      config: loadConfig({}),
      store,
      vault,
      clock: () => new Date(),
      rateLimiter: storeRateLimiter(store),
    });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it("are RFC 3339 with Z everywhere but the spec's wallet created_at", async () => {
    const setup = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const { api_key: apiKey, wallet_public_key: wallet } = setup.json<{
      api_key: string;
      wallet_public_key: string;
    }>();
    const key = await store.findApiKeyByHash(vault.hashApiKey(apiKey));
    const call = async (method: "GET" | "POST", url: string, payload?: object) =>
      (
        await app.inject({
          method,
          url,
          headers: { "x-api-key": apiKey, accept: "application/json" },
          ...(payload !== undefined ? { payload } : {}),
        })
      ).json<Record<string, any>>(); // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads
    await call("POST", "/v1/keys", { name: "bot", scopes: ["read"], expires_at: "2099-01-01T00:00:00Z" });
    const keys = (await call("GET", "/v1/keys")).keys as { created_at: string; expires_at: string | null }[];
    for (const k of keys) expect(k.created_at).toMatch(RFC3339_Z);
    expect(keys[1]!.expires_at).toMatch(RFC3339_Z);
    await recordPending(store, {
      apiKeyId: key!.id,
      kind: "trade",
      wallet,
      signatures: ["sig"],
      request: {},
      lastValidBlockHeight: 1000,
    });
    const execution = (await call("GET", "/v1/executions")).executions[0];
    expect([execution.created_at, execution.updated_at]).toEqual([
      expect.stringMatching(RFC3339_Z),
      expect.stringMatching(RFC3339_Z),
    ]);
    expect((await call("GET", `/v1/executions/${execution.id as string}`)).created_at).toMatch(RFC3339_Z);
    expect((await call("GET", "/v1/events")).events[0].created_at).toMatch(RFC3339_Z);
    const hook = await call("POST", "/v1/webhooks", { url: "https://example.com/h", types: ["*"] });
    expect(hook.created_at).toMatch(RFC3339_Z);
    const delivery = await call("POST", `/v1/webhooks/${hook.id as string}/test`);
    expect([delivery.created_at, delivery.updated_at]).toEqual([
      expect.stringMatching(RFC3339_Z),
      expect.stringMatching(RFC3339_Z),
    ]);
    expect((await call("GET", "/v1/webhooks")).webhooks[0].created_at).toMatch(RFC3339_Z);
    expect((await call("GET", "/v1/activity")).activity[0].at).toMatch(RFC3339_Z);
    // The spec's wallet record: "ISO 8601 without time-zone suffix".
    const wallets = (
      await app.inject({ method: "GET", url: "/v1/wallets", headers: { "x-api-key": apiKey } })
    ).json<{ created_at: string }[]>();
    expect(wallets[0]!.created_at).toMatch(NO_ZONE);
  });
});
