/**
 * POST /v1/orders honours Idempotency-Key as the execution routes do: the same key and body replay the first
 * answer (Idempotent-Replayed: true) and place one order; another body under the key is a 422 with the spec's
 * text; a request rerun after its process died between the insert and the stored answer finds the order it
 * placed (the order's id follows from the key's claim) instead of placing a second one.
 */
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY } from "../../../src/core/errors.js";
import { requestFingerprint } from "../../../src/domain/execution/idempotency.js";
import { newOrderId } from "../../../src/domain/orders/placement.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { move } from "./orders-fixture.js";

const e2e = useE2e({ warm: true, market: true });

function post(apiKey: string, key: string, body: Record<string, unknown>) {
  return e2e.app.inject({
    method: "POST",
    url: "/v1/orders",
    headers: { "x-api-key": apiKey, "idempotency-key": key },
    payload: body,
  });
}

async function openIds(apiKey: string): Promise<string[]> {
  const res = await e2e.get(apiKey, "/v1/orders?state=open");
  return res.json<{ orders: { id: string }[] }>().orders.map((o) => o.id);
}

describe("Idempotency-Key on POST /v1/orders", () => {
  it("replays the first answer for the same body, 422 for another, and places one order", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const body = { kind: "take_profit", mint, price: "1" };
    const first = await post(holder.apiKey, "order-key-1", body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await post(holder.apiKey, "order-key-1", { price: "1", mint, kind: "take_profit" });
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
    const other = await post(holder.apiKey, "order-key-1", { ...body, price: "2" });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      code: "idempotency.different_request",
      detail: IDEMPOTENCY.differentRequest,
    });
    expect(await openIds(holder.apiKey)).toEqual([first.json<{ id: string }>().id]);
    // A refusal does not use the key up: the corrected body under the same key places the order.
    const bad = await post(holder.apiKey, "order-key-2", { kind: "take_profit", mint, price: "0" });
    expect(bad.statusCode).toBe(400);
    const fixed = await post(holder.apiKey, "order-key-2", { kind: "take_profit", mint, price: "2" });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(await openIds(holder.apiKey)).toHaveLength(2);
  });

  it("a rerun after the first run's process died after its insert answers the order it placed", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const seed = await post(holder.apiKey, "order-key-seed", { kind: "take_profit", mint, price: "3" });
    const row = (await e2e.store.liveOrders()).find((r) => r.id === seed.json<{ id: string }>().id)!;
    const body = { kind: "stop_loss", mint, price: "0.000000001" };
    // The dead run: its claim (lease ended, no answer stored) and the order it inserted under the claim's id.
    const now = Date.now();
    const claimId = await e2e.store.insertIdempotencyKey({
      apiKeyId: row.accountId,
      keyId: row.keyId,
      key: "order-key-dead",
      fingerprint: requestFingerprint("POST", "/v1/orders", body),
      owner: "dead",
      lockedUntilMs: now - 1,
      createdAtMs: now,
    });
    expect(claimId).toBeDefined();
    const placed = await e2e.store.insertOrder(
      { ...row, id: newOrderId(row.accountId, claimId), expiresAt: null, peak: null },
      1000,
    );
    const rerun = await post(holder.apiKey, "order-key-dead", body);
    expect(rerun.statusCode, rerun.body).toBe(200);
    expect(rerun.json()).toMatchObject({ id: placed.id });
    expect((await openIds(holder.apiKey)).filter((id) => id === placed.id)).toHaveLength(1);
    expect(await openIds(holder.apiKey)).toHaveLength(2);
  });
});
