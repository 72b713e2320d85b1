/**
 * Issues 22 and 23: the service's OpenAPI document passes a well-kept OpenAPI linter (Redocly's, run
 * offline through @redocly/openapi-core) with the committed redocly.yaml, warnings included.
 */
import { fileURLToPath } from "node:url";
import { lintFromString, loadConfig, type NormalizedProblem } from "@redocly/openapi-core";
import { beforeAll, describe, expect, it } from "vitest";
import { serviceOpenApiDocument } from "../../../scripts/client-types.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- editing a JSON document

const CONFIG = fileURLToPath(new URL("../../../redocly.yaml", import.meta.url));

async function lint(doc: Json): Promise<string[]> {
  const config = await loadConfig({ configPath: CONFIG });
  const problems: NormalizedProblem[] = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: "openapi.json",
    config,
  });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
}

let doc: Json;
beforeAll(async () => {
  doc = (await serviceOpenApiDocument()) as Json;
});

describe("the OpenAPI document under the linter (redocly.yaml)", () => {
  it("has no error and no warning", async () => {
    expect(await lint(doc)).toEqual([]);
  });

  it("reports a request example that breaks its body schema, and an operation without operationId", async () => {
    const broken = structuredClone(doc);
    const trade = broken.paths["/v1/trades/execute"].post;
    trade.requestBody.content["application/json"].examples.buy.value.action = "hold";
    delete broken.paths["/v1/wallets"].get.operationId;
    const problems = await lint(broken);
    expect(problems.some((p) => p.startsWith("error no-invalid-media-type-examples"))).toBe(true);
    expect(problems.some((p) => p.startsWith("error operation-operationId"))).toBe(true);
  });
});
