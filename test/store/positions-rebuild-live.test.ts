/**
 * Issue 33 on SQLite and PostgreSQL: a bundle's fills move one position per leg and wallet (a wallet signing two
 * legs holds both); a rebuild run while fills are being recorded loses none and counts none twice (the rebuild
 * holds the ledger's write lock; a fill's ledger write waits for it, then applies on the rebuilt ledger).
 */
import { afterAll, describe, expect, it } from "vitest";
import { account, address } from "./positions-fixture.js";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("posrebuild");
const engines: [string, () => Promise<Store>][] = [["sqlite", () => openStore("sqlite::memory:", "./data")]];
if (TEST_DATABASE_URL !== undefined)
  engines.push(["postgres", () => openStore(TEST_DATABASE_URL!, "./data", { pgSchema: schema })]);

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

/** A buy's fill without the balance after it: the ledger's sums then do not depend on the order applied. */
const buyFill = (sol: bigint, tokens: bigint) => ({
  sol_change_lamports: (-sol).toString(),
  fee_lamports: "5000",
  tip_lamports: "0",
  rent_lamports: "0",
  trade_sol_lamports: "0",
  token_change: tokens.toString(),
  token_decimals: 6,
});

const figures = (ps: Awaited<ReturnType<Store["listPositions"]>>) =>
  ps.map((p) => [p.wallet, p.mint, p.figures.tokensHeld, p.figures.costBasis, p.figures.tradeCount]);

describe.each(engines)("positions rebuild and bundle legs on %s", (_name, open) => {
  it("a bundle's legs move each wallet's position; the rebuild agrees", async () => {
    const store = await open();
    try {
      const { id, wallet } = await account(store);
      const other = address();
      const mint = address();
      const e = newExecution(id, wallet, { kind: "bundle", wallets: [wallet, other], request: { legs: [] } });
      await store.insertExecution(e);
      const fills = [
        { index: 0, wallet, side: "buy", fill: buyFill(1_000_000n, 100n) },
        { index: 1, wallet: other, side: "buy", fill: buyFill(2_000_000n, 150n) },
        { index: 2, wallet, side: "buy", fill: buyFill(3_000_000n, 120n) },
      ];
      await store.updateExecution(e.id, { status: "confirmed", response: { mint, fills } });
      const list = await store.listPositions({ apiKeyId: id, limit: 10 });
      const expected = [
        [wallet, mint, 220n, 4_000_000n, 2],
        [other, mint, 150n, 2_000_000n, 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(figures(list)).toEqual(expected);
      const entries = await store.listPositionEntries({ apiKeyId: id });
      expect(entries.map((x) => x.executionId)).toEqual([e.id, e.id, e.id]);
      // Applied once: recording the same outcome again moves nothing.
      await store.updateExecution(e.id, { status: "confirmed", response: { mint, fills } });
      expect(figures(await store.listPositions({ apiKeyId: id, limit: 10 }))).toEqual(expected);
      await store.rebuildPositions(id);
      expect(figures(await store.listPositions({ apiKeyId: id, limit: 10 }))).toEqual(expected);
    } finally {
      await store.close();
    }
  });

  it("a rebuild while fills are recorded loses none and counts none twice", async () => {
    const store = await open();
    try {
      const { id, wallet } = await account(store);
      const mints = [address(), address(), address()];
      const trades = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const mint = mints[i % mints.length]!;
          const e = newExecution(id, wallet, { request: { action: "buy", mint } });
          await store.insertExecution(e);
          return { e, mint, tokens: BigInt(10 + i), sol: BigInt(1_000_000 + i) };
        }),
      );
      await Promise.all([
        ...trades.map((t) =>
          store.updateExecution(t.e.id, {
            status: "confirmed",
            response: { mint: t.mint, fill: buyFill(t.sol, t.tokens) },
          }),
        ),
        store.rebuildPositions(id),
        store.rebuildPositions(),
      ]);
      const live = figures(await store.listPositions({ apiKeyId: id, limit: 10 }));
      const held = (m: string) => trades.filter((t) => t.mint === m).reduce((s, t) => s + t.tokens, 0n);
      expect(live.map((p) => [p[1], p[2], p[4]])).toEqual([...mints].sort().map((m) => [m, held(m), 10]));
      await store.rebuildPositions(id);
      expect(figures(await store.listPositions({ apiKeyId: id, limit: 10 }))).toEqual(live);
      expect(await store.listPositionEntries({ apiKeyId: id })).toHaveLength(30);
    } finally {
      await store.close();
    }
  });
});
