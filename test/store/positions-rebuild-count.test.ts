/**
 * Issue 33: the rebuild's report counts fills (ledger lines), not executions: a bundle applies one fill per leg,
 * each to its own wallet's position, on SQLite and PostgreSQL; `npm run positions:rebuild` prints both counts.
 */
import { afterAll, describe, expect, it } from "vitest";
import { address } from "./positions-fixture.js";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { positionsRebuildCommand } from "../../src/cli/positions-rebuild-command.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("posrcount");
const engines: [string, () => Promise<Store>][] = [["sqlite", () => openStore("sqlite::memory:", "./data")]];
if (TEST_DATABASE_URL !== undefined)
  engines.push(["postgres", () => openStore(TEST_DATABASE_URL!, "./data", { pgSchema: schema })]);

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

const fill = (sol: bigint, tokens: bigint) => ({
  sol_change_lamports: sol.toString(),
  fee_lamports: "5000",
  tip_lamports: "0",
  rent_lamports: "0",
  trade_sol_lamports: "0",
  token_change: tokens.toString(),
  token_balance_after: tokens.toString(),
  token_decimals: 6,
});

describe.each(engines)("positions rebuild report on %s", (_name, open) => {
  it("a three-leg bundle and a trade: 4 fills applied from 2 executions, 3 positions", async () => {
    const store = await open();
    try {
      const [creator, b1, b2] = [address(), address(), address()];
      const { apiKey } = await store.createApiKeyWithWallet(`h-${Math.random()}`, {
        publicKey: creator,
        ciphertext: "c",
        nonce: "n",
        tag: "t",
        keyId: "k",
        createdAt: "2026-01-01T00:00:00.000",
      });
      const id = apiKey.id;
      const mint = address();
      const bundle = newExecution(id, creator, {
        kind: "bundle",
        wallets: [creator, b1, b2],
        signatures: ["S0", "S1", "S2"],
        request: { mint, legs: [] },
        createdAt: "2026-01-01T00:00:01.000",
      });
      await store.insertExecution(bundle);
      await store.updateExecution(bundle.id, {
        status: "confirmed",
        response: {
          mint,
          fills: [
            { index: 0, wallet: creator, side: "buy", fill: fill(-300n, 30n) },
            { index: 1, wallet: b1, side: "buy", fill: fill(-100n, 10n) },
            { index: 2, wallet: b2, side: "buy", fill: fill(-200n, 20n) },
          ],
        },
      });
      const trade = newExecution(id, b1, {
        request: { action: "buy", mint },
        createdAt: "2026-01-01T00:00:02.000",
      });
      await store.insertExecution(trade);
      await store.updateExecution(trade.id, {
        status: "confirmed",
        response: { mint, fill: fill(-50n, 5n) },
      });
      expect(await store.listPositionEntries({ apiKeyId: id })).toHaveLength(4);

      expect(await store.rebuildPositions(id)).toEqual({ executions: 2, fills: 4, positions: 3 });
      expect(await store.listPositionEntries({ apiKeyId: id })).toHaveLength(4);
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`err ${l}`) };
      const kept = { ...store, close: async () => {} } as Store;
      expect(await positionsRebuildCommand({}, ["--account", String(id)], io, async () => kept)).toBe(0);
      expect(lines).toEqual([`rebuilt account ${id}: 4 fills applied from 2 executions, 3 positions`]);
    } finally {
      await store.close();
    }
  });
});
