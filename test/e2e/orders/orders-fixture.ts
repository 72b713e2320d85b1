/** Shared steps of the order e2e suites: a holder with a position, a mover whose trades move the price. */
import { expect } from "vitest";
import { trade, type E2e } from "../../helpers/e2e.js";
import { until } from "../../helpers/warm.js";

/** An order as the API answers it (the fields the tests read). */
export interface OrderAnswer {
  id: string;
  state: string;
  kind: string;
  triggered_by: string | null;
  execution_ids: string[];
  error: unknown;
  price_now?: string | null;
  entry_price?: string | null;
  entry_source?: string | null;
  peak_price: string | null;
  attempts: number;
}

/** POST /v1/orders; expects 200. */
export async function placeOrder(
  e2e: E2e,
  apiKey: string,
  body: Record<string, unknown>,
): Promise<OrderAnswer> {
  const res = await e2e.post(apiKey, "/v1/orders", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OrderAnswer>();
}

/** GET /v1/orders/{id}. */
export async function getOrder(e2e: E2e, apiKey: string, id: string): Promise<OrderAnswer> {
  const res = await e2e.get(apiKey, `/v1/orders/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OrderAnswer>();
}

/** Waits until the order leaves open/triggered; returns it. */
export async function settled(e2e: E2e, apiKey: string, id: string): Promise<OrderAnswer> {
  let last: OrderAnswer | undefined;
  await until(async () => {
    last = await getOrder(e2e, apiKey, id);
    return last.state !== "open" && last.state !== "triggered";
  }, `order ${id} to settle`);
  return last!;
}

/** A confirmed trade by `apiKey` (the mover's trades move the price the orders watch). */
export async function move(
  e2e: E2e,
  apiKey: string,
  action: "buy" | "sell",
  mint: string,
  amount: string,
): Promise<void> {
  await trade(e2e, apiKey, { action, mint, amount, simulate: false, confirm: true });
}

/**
 * A stop-loss at -10% from an entry of 1 SOL per whole token on `mint`: far above the price of a fresh token, so
 * crossed from the start (the holder must hold the mint).
 */
export function placeCrossedStopLoss(e2e: E2e, apiKey: string, mint: string): Promise<OrderAnswer> {
  return placeOrder(e2e, apiKey, { kind: "stop_loss", mint, percent: -10, entry_price: "1" });
}

/** Waits for the activity log's FIRE row of order `id` (written once its fire has settled); returns it. */
export async function fireActivity(
  e2e: E2e,
  apiKey: string,
  id: string,
): Promise<{ status: number; rule: string | null }> {
  let fire: { method: string; route: string; status: number; rule: string | null } | undefined;
  await until(async () => {
    const res = await e2e.get(apiKey, "/v1/activity?limit=100");
    const rows = res.json<{
      activity: { method: string; route: string; status: number; rule: string | null }[];
    }>();
    fire = rows.activity.find((r) => r.method === "FIRE" && r.route === `/v1/orders/${id}`);
    return fire !== undefined;
  }, `the fire of order ${id} in the activity log`);
  return fire!;
}

/** GET /v1/orders/{id}/fires (first page). */
export async function firesOf(e2e: E2e, apiKey: string, id: string): Promise<{ fires: unknown[] }> {
  const res = await e2e.get(apiKey, `/v1/orders/${id}/fires`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
