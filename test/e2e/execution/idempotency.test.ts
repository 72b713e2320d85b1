/**
 * Idempotency-Key on execution endpoints against the localnet: replay byte for byte with nothing sent twice,
 * a different body → 422, a running first request → 409, refused requests do not use the key up, keys are
 * per API key, and a key left running by a dead process is taken over or reported as interrupted.
 */
import { describe, expect, it } from "vitest";
import { FOUNDATION, IDEMPOTENCY } from "../../../src/core/errors.js";
import { newExecution } from "../../helpers/fixtures.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();
const EXECUTE = "/v1/trades/execute";

function postWithKey(apiKey: string, key: string | undefined, url: string, body: unknown) {
  return e2e.app.inject({
    method: "POST",
    url,
    headers: {
      "x-api-key": apiKey,
      "content-type": "application/json",
      ...(key !== undefined ? { "idempotency-key": key } : {}),
    },
    payload: JSON.stringify(body),
  });
}

async function executionCount(apiKey: string): Promise<number> {
  const res = await e2e.get(apiKey, "/v1/executions?limit=100");
  return res.json<{ executions: unknown[] }>().executions.length;
}

describe("Idempotency-Key", () => {
  it("replays the first response byte for byte and sends nothing a second time", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const body = { action: "buy", mint, amount: "0.05", simulate: false };
    const first = await postWithKey(apiKey, "buy-1", EXECUTE, body);
    expect(first.statusCode).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const tokens = await e2e.tokenBalance(wallet, mint);
    e2e.reset();

    // Same body with another key order and spacing is the same request.
    const again = await e2e.app.inject({
      method: "POST",
      url: EXECUTE,
      headers: { "x-api-key": apiKey, "content-type": "application/json", "idempotency-key": "buy-1" },
      payload: `{ "simulate": false, "amount": "0.05", "mint": "${mint}", "action": "buy" }`,
    });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
    expect(e2e.roundTrips()["relay.sendTransaction"]).toBeUndefined();
    expect(await e2e.tokenBalance(wallet, mint)).toBe(tokens);
    expect(await executionCount(apiKey)).toBe(1);
    const [row] = (await e2e.get(apiKey, "/v1/executions")).json<{
      executions: { idempotency_key: string }[];
    }>().executions;
    expect(row?.idempotency_key).toBe("buy-1");
  });

  it("answers 422 for the same key with a different request, 400 for a bad key, and is scoped to the API key", async () => {
    const { apiKey } = await e2e.setup();
    const other = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };
    expect((await postWithKey(apiKey, "k", EXECUTE, body)).statusCode).toBe(200);

    const changed = await postWithKey(apiKey, "k", EXECUTE, { ...body, amount: "0.02" });
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({
      code: "idempotency.different_request",
      detail: IDEMPOTENCY.differentRequest,
    });
    const otherRoute = await postWithKey(apiKey, "k", "/v1/sol/transfer/execute", {
      destination_wallet: other.wallet,
      amount: "0.01",
    });
    expect(otherRoute.statusCode).toBe(422);

    for (const bad of ["", "x".repeat(256), "caf\u00e9", "a\tb"]) {
      const res = await e2e.app.inject({
        method: "POST",
        url: EXECUTE,
        headers: { "x-api-key": apiKey, "content-type": "application/json", "idempotency-key": bad },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: IDEMPOTENCY.invalidKey, code: "idempotency.invalid_key" });
    }
    expect((await postWithKey(apiKey, "x".repeat(255), EXECUTE, body)).statusCode).toBe(200);

    // Another API key's "k" is its own.
    const theirs = await postWithKey(other.apiKey, "k", EXECUTE, { ...body, amount: "0.03" });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("answers 409 while the first request is still running, then replays it", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };
    e2e.localnet.admin.setFaults({ endpoints: ["relay"], methods: ["sendTransaction"], latencyMs: 1_000 });
    const first = postWithKey(apiKey, "slow", EXECUTE, body);
    for (let i = 0; i < 500 && (e2e.localnet.admin.stats()["relay.sendTransaction"] ?? 0) === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const during = await postWithKey(apiKey, "slow", EXECUTE, body);
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual({ code: "idempotency.in_progress", detail: IDEMPOTENCY.inProgress });
    const done = await first;
    expect(done.statusCode).toBe(200);
    const after = await postWithKey(apiKey, "slow", EXECUTE, body);
    expect(after.headers["idempotent-replayed"]).toBe("true");
    expect(after.body).toBe(done.body);
    expect(await executionCount(apiKey)).toBe(1);
  });

  it("does not use the key up when the request is refused before anything is signed", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const bad = await postWithKey(apiKey, "fix-me", EXECUTE, { action: "hold", mint, amount: "0.01" });
    expect(bad.statusCode).toBe(400);
    const notJson = await e2e.app.inject({
      method: "POST",
      url: EXECUTE,
      headers: { "x-api-key": apiKey, "content-type": "application/json", "idempotency-key": "fix-me" },
      payload: "{",
    });
    expect(notJson.json()).toEqual({ code: "http.invalid_json", detail: FOUNDATION.invalidJson });
    const good = await postWithKey(apiKey, "fix-me", EXECUTE, {
      action: "buy",
      mint,
      amount: "0.01",
      simulate: false,
      confirm: false,
    });
    expect(good.statusCode).toBe(200);
    expect(good.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("keeps a response once an execution was recorded, even a failed one", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.setFaults({
      endpoints: ["relay"],
      methods: ["sendTransaction"],
      errorKind: "http500",
      errorCount: 1,
    });
    const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };
    const failed = await postWithKey(apiKey, "once", EXECUTE, body);
    expect(failed.statusCode).toBe(502);
    const again = await postWithKey(apiKey, "once", EXECUTE, body);
    expect(again.statusCode).toBe(502);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(failed.body);
  });

  it("takes over a key whose holder died before recording, and reports one that died after", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const keyRecord = await e2e.store.findApiKeyByHash(e2e.vault.hashApiKey(apiKey));
    const apiKeyId = keyRecord!.id;
    const body = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };
    const fingerprintOf = async (key: string) => {
      // The fingerprint the service computes: run once under a throwaway key and read it back.
      await postWithKey(apiKey, key, EXECUTE, body);
      return (await e2e.store.findIdempotencyKey(apiKeyId, apiKeyId, key))!.fingerprint;
    };
    const fingerprint = await fingerprintOf("probe");
    const past = Date.now() - 60_000;
    const dead = {
      apiKeyId,
      keyId: apiKeyId,
      fingerprint,
      owner: "dead-process",
      lockedUntilMs: past,
      createdAtMs: past,
    };

    await e2e.store.insertIdempotencyKey({ ...dead, key: "orphan-clean" });
    const taken = await postWithKey(apiKey, "orphan-clean", EXECUTE, body);
    expect(taken.statusCode).toBe(200);
    expect(taken.headers["idempotent-replayed"]).toBeUndefined();

    await e2e.store.insertIdempotencyKey({ ...dead, key: "orphan-sent" });
    await e2e.store.insertExecution(newExecution(apiKeyId, wallet, { idempotencyKey: "orphan-sent" }));
    const interrupted = await postWithKey(apiKey, "orphan-sent", EXECUTE, body);
    expect(interrupted.statusCode).toBe(409);
    expect(interrupted.json()).toEqual({ code: "idempotency.interrupted", detail: IDEMPOTENCY.interrupted });
    const later = await postWithKey(apiKey, "orphan-sent", EXECUTE, body);
    expect(later.statusCode).toBe(409);
    expect(later.headers["idempotent-replayed"]).toBe("true");
  });

  it("documents the header on every execution route in the OpenAPI document", async () => {
    const doc = (await e2e.app.inject({ method: "GET", url: "/openapi.json" })).json<{
      paths: Record<string, { post?: { parameters?: { name: string; in: string }[] } }>;
    }>();
    const routes = [
      "/v1/trades/execute",
      "/v1/laser/create",
      "/v1/laser/bundle",
      "/v1/cashback/claim/execute",
      "/v1/sol/consolidate/execute",
      "/v1/sol/transfer/execute",
      "/v1/sol/split/execute",
    ];
    for (const r of routes) {
      const params = doc.paths[r]?.post?.parameters ?? [];
      expect(
        params.some((p) => p.in === "header" && p.name === "idempotency-key"),
        r,
      ).toBe(true);
    }
    expect(doc.paths["/v1/cashback/check"]?.post?.parameters ?? []).toEqual([]);
  });
});
