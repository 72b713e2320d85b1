/** The outside-wallet racing scenario (outside-race-scenario.ts) with the service on PostgreSQL. */
import { afterAll, describe, it } from "vitest";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { racedOutsideScenario } from "./outside-race-scenario.js";

const url = TEST_DATABASE_URL;
const schema = freshSchemaName("e2eorace");
const e2e =
  url !== undefined
    ? useE2e({ routes: { stats: new RouteStats() }, databaseUrl: url, pgSchema: schema })
    : undefined;

afterAll(async () => {
  if (url !== undefined) await dropSchema(url, schema);
});

describe.skipIf(e2e === undefined)("outside wallets racing on PostgreSQL", () => {
  it("creates the nonce, builds a variant per route, races the signed variants: exactly one lands", async () => {
    await racedOutsideScenario(e2e!);
  });
});
