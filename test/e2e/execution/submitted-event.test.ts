/**
 * Issue 30 (item 5, last bullet): an execution that waits for confirmation takes the `submitted` status as soon
 * as the relay accepted the send, so the events outbox carries `execution.submitted` between `pending` and the
 * final status (the CLI's spinner moves from "recorded, sending" to "submitted, confirming"). Against the
 * localnet, through the HTTP API.
 */
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

/** The event types of one execution, in outbox order. */
async function typesOf(apiKey: string, executionId: string): Promise<string[]> {
  const res = await e2e.app.inject({
    method: "GET",
    url: "/v1/events?after=0&limit=1000",
    headers: { "x-api-key": apiKey, accept: "application/json" },
  });
  expect(res.statusCode, res.body).toBe(200);
  const events = res.json<{ events: { type: string; execution_id: string }[] }>().events;
  // The fill of a confirmed trade also writes position.updated under its id: only the execution statuses here.
  return events
    .filter((e) => e.execution_id === executionId && e.type.startsWith("execution."))
    .map((e) => e.type);
}

describe("the submitted event", () => {
  it("a confirmed trade goes pending → submitted → confirmed; a confirm-off one ends at submitted once", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const confirmed = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { execution_id: id } = confirmed.json<{ execution_id: string; confirmed: boolean }>();
    expect(await typesOf(apiKey, id)).toEqual([
      "execution.pending",
      "execution.submitted",
      "execution.confirmed",
    ]);
    // The record ends confirmed: the submitted write never lands after the outcome.
    const record = await e2e.get(apiKey, `/v1/executions/${id}`);
    expect(record.json<{ status: string }>().status).toBe("confirmed");

    const sent = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "0.01",
      confirm: false,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const sentId = sent.json<{ execution_id: string }>().execution_id;
    expect(await typesOf(apiKey, sentId)).toEqual(["execution.pending", "execution.submitted"]);
  });

  it("a simulation refused before sending never says submitted", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    // More SOL than the wallet holds: refused before anything is sent (no submitted event).
    const refused = await e2e.post(apiKey, "/v1/trades/execute", {
      action: "buy",
      mint,
      amount: "100000",
      simulate: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ code: string }>().code).toBe("trade.simulation_failed");
    const id = refused.json<{ execution_id?: string }>().execution_id;
    if (id !== undefined) expect(await typesOf(apiKey, id)).not.toContain("execution.submitted");
  });
});
