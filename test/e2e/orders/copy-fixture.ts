/** Shared steps of the copy-order e2e suites: a leader's trades, the copier's fires as the store records them. */
import { expect } from "vitest";
import type { CopyFireRecord } from "../../../src/store/index.js";
import type { E2e } from "../../helpers/e2e.js";
import { until } from "../../helpers/warm.js";

/** A token created through the service (its create event reaches the market feed). */
export async function created(e2e: E2e, apiKey: string): Promise<string> {
  const res = await e2e.post(apiKey, "/v1/laser/create", {
    name: "Copied",
    symbol: "CPY",
    uri: "https://example.test/c.json",
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ mint: string }>().mint;
}

/** A confirmed trade by `apiKey`; its transaction signature. */
export async function leaderTrade(
  e2e: E2e,
  apiKey: string,
  action: "buy" | "sell",
  mint: string,
  amount: string,
): Promise<string> {
  const res = await e2e.post(apiKey, "/v1/trades/execute", {
    action,
    mint,
    amount,
    simulate: false,
    confirm: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ signature: string }>().signature;
}

/** Waits until the copy order has decided the followed trade `signature` (fired and settled, or skipped). */
export async function decided(e2e: E2e, orderId: string, signature: string): Promise<CopyFireRecord> {
  let row: CopyFireRecord | undefined;
  await until(async () => {
    row = (await e2e.store.copyFires(orderId)).find((f) => f.signature === signature);
    return row?.outcome !== undefined && row.outcome !== null;
  }, `the copy of ${signature}`);
  return row!;
}

/** The executions of an order's fires (confirmed each), with their Idempotency-Keys. */
export async function firedExecution(
  e2e: E2e,
  apiKey: string,
  executionId: string,
): Promise<{ idempotency_key: string; status: string; response: { venue: string; state_source?: string } }> {
  const res = await e2e.get(apiKey, `/v1/executions/${executionId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
