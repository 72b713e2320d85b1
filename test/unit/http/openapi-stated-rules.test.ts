/**
 * Issue 30: the OpenAPI document states rules the service enforces — base58 patterns on body addresses, the
 * Idempotency-Key header's pattern and length, optional bodies not required, `?signature=` and `?status=` on
 * /v1/executions, every event type of a webhook, and the error body's fields beside `detail`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serviceOpenApiDocument } from "../../../scripts/client-types.js";
import { BASE58_ADDRESS } from "../../../src/config/parse.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

let doc: Json;
beforeAll(async () => {
  doc = (await serviceOpenApiDocument()) as Json;
});

const body = (path: string): Json => doc.paths[path].post.requestBody.content["application/json"].schema;
const address = BASE58_ADDRESS.source;

describe("rules stated in the OpenAPI document", () => {
  it("gives every body address a base58 pattern", () => {
    const trade = body("/v1/trades/execute").properties;
    expect([trade.mint.pattern, trade.pool.pattern, trade.wallet.pattern]).toEqual([
      address,
      address,
      address,
    ]);
    const bundle = body("/v1/laser/bundle");
    expect(bundle.properties.mint.pattern).toBe(address);
    expect(bundle.properties.accounts.items.properties.wallet.pattern).toBe(address);
    const consolidate = body("/v1/sol/consolidate/execute").properties;
    expect(consolidate.destination_wallet.pattern).toBe(address);
    expect(consolidate.source_wallets.items.pattern).toBe(address);
    const transfer = body("/v1/sol/transfer/execute").properties;
    expect(transfer.source_wallet.pattern).toBe(address);
    expect(new RegExp(transfer.mint.pattern as string).test(" sol ")).toBe(true);
    expect(new RegExp(transfer.mint.pattern as string).test("not-a-mint")).toBe(false);
    expect(body("/v1/sol/split/execute").properties.destinations.items.properties.wallet.pattern).toBe(
      address,
    );
    expect(body("/v1/laser/create").properties.wallet.pattern).toBe(address);
    expect(body("/v1/cashback/check").properties.wallets.items.pattern).toBe(address);
  });

  it("states the Idempotency-Key header's length and characters", () => {
    const header = (doc.paths["/v1/trades/execute"].post.parameters as Json[]).find(
      (p) => p.in === "header" && p.name === "idempotency-key",
    );
    expect(header?.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
    const pattern = new RegExp(header?.schema.pattern as string);
    expect(pattern.test("order-1")).toBe(true);
    expect(pattern.test("naïve")).toBe(false);
  });

  it("marks the optional bodies not required, and the others required", () => {
    for (const path of ["/v1/wallets", "/v1/cashback/check", "/v1/cashback/claim/execute"])
      expect(doc.paths[path].post.requestBody.required, path).toBe(false);
    expect(doc.paths["/v1/trades/execute"].post.requestBody.required).toBe(true);
  });

  it("documents ?signature= and ?status= on /v1/executions and every webhook event type", () => {
    const params = doc.paths["/v1/executions"].get.parameters as Json[];
    const q = (name: string) => params.find((p) => p.in === "query" && p.name === name)?.schema as Json;
    expect(q("signature")).toMatchObject({ type: "string", pattern: "^[1-9A-HJ-NP-Za-km-z]{64,88}$" });
    expect(q("status").enum).toEqual([
      "pending",
      "submitted",
      "confirmed",
      "finalized",
      "failed",
      "timeout",
      "expired",
    ]);
    // ["*"], or a list of event types.
    const [every, listed] = body("/v1/webhooks").properties.types.oneOf;
    expect(every.items.enum).toEqual(["*"]);
    expect(listed.items.enum).toContain("execution.confirmed");
    expect(listed.items.enum).not.toContain("execution.confirm");
  });

  it("lists the error body's fields beside detail", () => {
    const props = Object.keys(doc.components.schemas.Error.properties as Json);
    expect(props).toEqual(
      expect.arrayContaining(["detail", "rule", "signature", "logs", "program_error", "index"]),
    );
  });
});
