/**
 * Issue 33: positions opened by a create's dev buy and by a create-led bundle's legs (SQLite, and PostgreSQL
 * with TEST_DATABASE_URL): the chain's balance changes to the lamport, per leg and per wallet (also of a bundle
 * settled by reconciliation), and the rebuild.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { startE2eWithLookupTable, type E2e } from "../../helpers/e2e.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import {
  bundleScenario,
  createThenSellScenario,
  reconciledBundleScenario,
} from "./created-positions-scenario.js";

const schema = freshSchemaName("e2eposc");
type Db = { databaseUrl?: string; pgSchema?: string };
const engines: [string, Db][] = [["sqlite", {}]];
if (TEST_DATABASE_URL !== undefined)
  engines.push(["postgres", { databaseUrl: TEST_DATABASE_URL, pgSchema: schema }]);

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

describe.each(engines)("positions opened by creates and bundles on %s", (_name, db) => {
  let e2e: E2e;
  beforeAll(async () => {
    // A bundle's confirmation wait shorter than the reconciled scenario's landing delay.
    e2e = await startE2eWithLookupTable({ warm: true, chain: { bundleConfirmTimeoutMs: 1_500 }, ...db });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("a create with a dev buy, then a partial sell: the chain's numbers, events, the rebuild", async () => {
    e2e.reset();
    await createThenSellScenario(e2e);
  });

  it("a create-led bundle with two buyer wallets: each wallet's position, a partial sell, the rebuild", async () => {
    e2e.reset();
    await bundleScenario(e2e);
  });

  it("a create-led bundle that times out, then lands and is reconciled: each wallet's leg, to the lamport", async () => {
    e2e.reset();
    await reconciledBundleScenario(e2e);
  });
});
