/**
 * Issue 30: enums and filters are validated where they are read — a webhook's event types, `GET /v1/events
 * ?types=` and `GET /v1/executions?status=` answer 400 naming the allowed values, and the status filter
 * filters — on SQLite and PostgreSQL.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { EVENTS, EXECUTION } from "../../src/core/errors.js";
import { recordOutcome, recordPending } from "../../src/domain/execution/records.js";
import { buildApp } from "../../src/http/app.js";
import { storeRateLimiter } from "../../src/http/hooks/rate-limiters.js";
import { openStore, type Store } from "../../src/store/index.js";
import { nextTestIp, testVault } from "../helpers/app.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const engines = [
  { name: "sqlite", url: undefined as string | undefined },
  ...(TEST_DATABASE_URL !== undefined ? [{ name: "postgres", url: TEST_DATABASE_URL }] : []),
];

describe.each(engines)("enum filters ($name)", ({ url }) => {
  let app: FastifyInstance;
  let store: Store;
  const vault = testVault();
  const schema = freshSchemaName("enf");
  beforeAll(async () => {
    store = await openStore(
      url ?? "sqlite::memory:",
      "./data",
      url !== undefined ? { pgSchema: schema } : {},
    );
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
    if (url !== undefined) await dropSchema(url, schema);
  });

  async function account(): Promise<{ apiKey: string; keyId: number; wallet: string }> {
    const res = await app.inject({ method: "POST", url: "/v1/laser/setup", remoteAddress: nextTestIp() });
    const body = res.json<{ api_key: string; wallet_public_key: string }>();
    const key = await store.findApiKeyByHash(vault.hashApiKey(body.api_key));
    return { apiKey: body.api_key, keyId: key!.id, wallet: body.wallet_public_key };
  }

  const get = (apiKey: string, path: string) =>
    app.inject({ method: "GET", url: path, headers: { "x-api-key": apiKey, accept: "application/json" } });

  it("refuses a webhook whose types name an unknown event type, naming the known ones", async () => {
    const a = await account();
    const create = (types: unknown) =>
      app.inject({
        method: "POST",
        url: "/v1/webhooks",
        headers: { "x-api-key": a.apiKey },
        payload: { url: "https://example.com/hook", types },
      });
    const typo = await create(["execution.confirm"]);
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toEqual({ code: "events.webhook_types_invalid", detail: EVENTS.webhookTypesInvalid });
    expect(EVENTS.webhookTypesInvalid).toContain("execution.confirmed, execution.finalized");
    expect((await create(["webhook.test"])).statusCode).toBe(400);
    expect((await create(["execution.confirmed", "execution.failed"])).statusCode).toBe(201);
    expect((await create(["*"])).statusCode).toBe(201);
  });

  it("refuses GET /v1/events?types= with a typo (was an empty list)", async () => {
    const a = await account();
    const typo = await get(a.apiKey, "/v1/events?types=execution.confimed");
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toEqual({ code: "events.types_invalid", detail: EVENTS.typesInvalid });
    expect(EVENTS.typesInvalid).toContain("execution.pending");
    expect((await get(a.apiKey, "/v1/events?types=execution.failed,execution.expired")).statusCode).toBe(200);
  });

  it("filters GET /v1/executions by status, and refuses an unknown status naming the known ones", async () => {
    const a = await account();
    const record = () =>
      recordPending(store, {
        apiKeyId: a.keyId,
        kind: "trade",
        wallet: a.wallet,
        signatures: ["sig"],
        request: {},
        lastValidBlockHeight: 1000,
      });
    const failed = await record();
    await recordOutcome(store, failed, {
      status: "failed",
      confirmationStatus: null,
      error: { detail: "x" },
    });
    const confirmed = await record();
    await recordOutcome(store, confirmed, { status: "confirmed", confirmationStatus: "confirmed" });
    const pending = await record();
    const ids = async (q: string) =>
      (await get(a.apiKey, `/v1/executions${q}`))
        .json<{ executions: { id: string }[] }>()
        .executions.map((e) => e.id);
    expect(await ids("?status=failed")).toEqual([failed]);
    expect(await ids("?status=confirmed")).toEqual([confirmed]);
    expect(await ids("?status=pending")).toEqual([pending]);
    expect((await ids("")).sort()).toEqual([failed, confirmed, pending].sort());
    const bad = await get(a.apiKey, "/v1/executions?status=failure");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: "execution.history_status", detail: EXECUTION.historyStatus });
  });
});
