/** Issue 33: the positions e2e scenario (buy, buy, partial sell, rebuild) with the service on PostgreSQL. */
import { afterAll, describe, it } from "vitest";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { buyBuySellScenario } from "./positions-scenario.js";

const url = TEST_DATABASE_URL;
const schema = freshSchemaName("e2epos");
const e2e = url !== undefined ? useE2e({ warm: true, databaseUrl: url, pgSchema: schema }) : undefined;

afterAll(async () => {
  if (url !== undefined) await dropSchema(url, schema);
});

describe.skipIf(e2e === undefined)("positions on PostgreSQL", () => {
  it("buy, buy, partial sell: the chain's numbers, the warm liquidation value, PnL, events, the rebuild", async () => {
    await buyBuySellScenario(e2e!);
  });
});
